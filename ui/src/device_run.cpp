#include "rdmascope/ui/device_run.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>

#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/real_run_controller.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "rdmascope/verbs_backend/scenario_side.h"

namespace rdmascope::ui {

namespace {

// Empty when the scenario can be read, else why not.
QString scenarioProblem(const QString& name) {
  try {
    verbs_backend::findScenario(name.toStdString());
    return {};
  } catch (const verbs_backend::ScenarioError& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace

bool parsePeerAddress(const QString& text, QString& host, std::uint16_t& port, QString& error) {
  const QString t = text.trimmed();
  if (t.isEmpty()) {
    error = QObject::tr("no peer host given: enter HOST or HOST:PORT");
    return false;
  }
  QString h = t, p;
  bool hasPort = false;
  if (t.startsWith(QLatin1Char('['))) {
    const auto close = t.indexOf(QLatin1Char(']'));
    if (close < 0) {
      error = QObject::tr("'%1': an IPv6 address in [ ] lacks its ']'").arg(t);
      return false;
    }
    h = t.mid(1, close - 1);
    const QString rest = t.mid(close + 1);
    if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(':'))) {
      error = QObject::tr("'%1': expected ':PORT' after ']'").arg(t);
      return false;
    }
    hasPort = !rest.isEmpty();
    p = rest.mid(1);
  } else if (t.count(QLatin1Char(':')) == 1) {  // more than one: a bare IPv6 address
    h = t.section(QLatin1Char(':'), 0, 0);
    p = t.section(QLatin1Char(':'), 1);
    hasPort = true;
  }
  if (h.isEmpty() || h.contains(QLatin1Char(' '))) {
    error = QObject::tr("'%1' is not a host name or address").arg(t);
    return false;
  }
  if (hasPort) {
    bool ok = false;
    const uint v = p.toUInt(&ok);
    if (!ok || v == 0 || v > 65535) {
      error = QObject::tr("'%1': the port must be a number from 1 to 65535").arg(t);
      return false;
    }
    port = static_cast<std::uint16_t>(v);
  }
  host = h;
  return true;
}

bool deviceRunFromArguments(const QString& device, const QString& connect, bool serve,
                            bool loopback, const QString& scenario, int port,
                            DeviceRunRequest& request, QString& error) {
  const int modes = (connect.isEmpty() ? 0 : 1) + (serve ? 1 : 0) + (loopback ? 1 : 0);
  if (modes != 1) {
    error = QObject::tr(
        "--device needs exactly one of --connect HOST[:PORT], --serve or "
        "--loopback");
    return false;
  }
  if (port < 0 || port > 65535) {
    error = QObject::tr("--port %1: the port must be a number from 1 to 65535").arg(port);
    return false;
  }
  DeviceRunRequest r;
  r.device = device;
  r.scenario = scenario;
  if (port > 0) r.port = static_cast<std::uint16_t>(port);
  r.peer = serve      ? DeviceRunRequest::Peer::Serve
           : loopback ? DeviceRunRequest::Peer::Loopback
                      : DeviceRunRequest::Peer::Connect;
  if (r.peer == DeviceRunRequest::Peer::Connect &&
      !parsePeerAddress(connect, r.host, r.port, error))
    return false;
  if (QString e = checkDeviceRun(r); !e.isEmpty()) {
    error = e;
    return false;
  }
  request = r;
  return true;
}

QString checkDeviceRun(const DeviceRunRequest& r) {
  if (r.device.trimmed().isEmpty()) return QObject::tr("no RDMA device given");
  if (r.scenario.trimmed().isEmpty()) return QObject::tr("no scenario given");
  if (QString e = scenarioProblem(r.scenario); !e.isEmpty()) return e;
  if (r.peer == DeviceRunRequest::Peer::Loopback) return {};
  if (r.port == 0) return QObject::tr("the port must be a number from 1 to 65535");
  if (r.peer == DeviceRunRequest::Peer::Connect && r.host.trimmed().isEmpty())
    return QObject::tr("no peer host given: enter HOST or HOST:PORT");
  return {};
}

QString peerCommand(const DeviceRunRequest& r, const QString& ownAddress) {
  if (r.peer == DeviceRunRequest::Peer::Loopback) return {};
  QString cmd = QStringLiteral("rdmascope-cli verbs --device %1 --scenario %2")
                    .arg(r.device.isEmpty() ? QStringLiteral("DEVICE") : r.device, r.scenario);
  if (r.peer == DeviceRunRequest::Peer::Connect)
    cmd += QStringLiteral(" --server");
  else
    cmd += QStringLiteral(" --connect %1")
               .arg(ownAddress.isEmpty() ? QStringLiteral("THIS_MACHINE") : ownAddress);
  if (r.port != verbs_backend::kDefaultOobPort) cmd += QStringLiteral(" --port %1").arg(r.port);
  return cmd;
}

QStringList interfaceAddresses(const QString& interfaceName) {
  QStringList out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return out;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    if (QString::fromLocal8Bit(a->ifa_name) != interfaceName) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    if (::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) out << QString::fromLatin1(text);
  }
  ::freeifaddrs(list);
  return out;
}

namespace {

// Prints the run's completions and summary (or error), then saves the screenshot and quits.
void endScriptedRun(MainWindow& window, const RealRunController& run, const QString& screenshot,
                    bool quit, bool ok) {
  for (const QString& line : run.realCompletions())
    std::printf("%s\n", qPrintable(line));
  if (!run.summary().isEmpty()) std::printf("rdmascope: %s\n", qPrintable(run.summary()));
  if (!ok) std::fprintf(stderr, "rdmascope: %s\n", qPrintable(run.lastError()));
  std::fflush(stdout);
  if (screenshot.isEmpty() && !quit) return;
  // Let the views lay out the capture they were just given before grabbing them.
  QTimer::singleShot(500, &window, [&window, screenshot, ok] {
    bool saved = true;
    if (!screenshot.isEmpty()) {
      window.analysis()->waitForIdle();
      QCoreApplication::processEvents();  // the status bar shows the analysis
      saved = window.grab().save(screenshot);
      if (!saved)
        std::fprintf(stderr, "rdmascope: cannot write the screenshot %s\n", qPrintable(screenshot));
    }
    QApplication::exit(ok && saved ? 0 : 1);
  });
}

}  // namespace

void startScriptedDeviceRun(MainWindow& window, const DeviceRunRequest& request,
                            const QString& screenshot, bool quit) {
  RealRunController* run = window.realRun();
  const auto& options = run->inventory().options;
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i].kind == BackendOption::Kind::Device && options[i].device == request.device)
      if (auto* box = window.findChild<QComboBox*>(QStringLiteral("backendBox")))
        box->setCurrentIndex(static_cast<int>(i));
  if (!QFileInfo(request.scenario).isFile()) window.openScenario(request.scenario);
  QObject::connect(run, &RealRunController::finished, &window,
                   [&window, run, screenshot, quit](bool ok) {
                     endScriptedRun(window, *run, screenshot, quit, ok);
                   });
  // From the event loop, so that a run refused at once still ends the application.
  QTimer::singleShot(0, run, [run, request] { run->runDevice(request); });
}

DeviceRunDialog::DeviceRunDialog(const QString& device, const QString& scenario,
                                 const QString& netdev, QWidget* parent)
    : QDialog(parent), device_(device), scenario_(scenario), netdev_(netdev) {
  setObjectName(QStringLiteral("deviceRunDialog"));
  setWindowTitle(tr("Run %1 on %2").arg(scenario, device));
  connect_ = new QRadioButton(tr("Connect to a peer at"), this);
  connect_->setObjectName(QStringLiteral("peerConnect"));
  serve_ = new QRadioButton(tr("Wait for a peer to connect"), this);
  serve_->setObjectName(QStringLiteral("peerServe"));
  loopback_ = new QRadioButton(tr("Both hosts on %1 (nothing can be captured)").arg(device), this);
  loopback_->setObjectName(QStringLiteral("peerLoopback"));
  host_ = new QLineEdit(this);
  host_->setObjectName(QStringLiteral("peerHost"));
  host_->setPlaceholderText(tr("HOST or HOST:PORT"));
  port_ = new QSpinBox(this);
  port_->setObjectName(QStringLiteral("peerPort"));
  port_->setRange(1, 65535);
  port_->setValue(verbs_backend::kDefaultOobPort);
  command_ = new QLineEdit(this);
  command_->setObjectName(QStringLiteral("peerCommand"));
  command_->setReadOnly(true);
  auto* copy = new QPushButton(tr("Copy"), this);
  copy->setObjectName(QStringLiteral("copyCommand"));
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("deviceRunError"));
  error_->setStyleSheet(QStringLiteral("QLabel { color: #a40000; font-weight: bold; }"));
  error_->setWordWrap(true);
  connect_->setChecked(true);

  auto* grid = new QGridLayout;
  grid->addWidget(connect_, 0, 0);
  grid->addWidget(host_, 0, 1);
  grid->addWidget(serve_, 1, 0);
  auto* portRow = new QHBoxLayout;
  portRow->addWidget(new QLabel(tr("TCP port:"), this));
  portRow->addWidget(port_);
  portRow->addStretch(1);
  grid->addLayout(portRow, 1, 1);
  grid->addWidget(loopback_, 2, 0, 1, 2);
  auto* cmdRow = new QHBoxLayout;
  cmdRow->addWidget(command_, 1);
  cmdRow->addWidget(copy);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(
      tr("<b>%1</b> plays one host of <b>%2</b> here and captures on %3; a peer machine plays "
         "the other host.")
          .arg(device, scenario, netdev.isEmpty() ? tr("its network interface") : netdev),
      this));
  layout->addLayout(grid);
  layout->addWidget(new QLabel(tr("On the other machine run:"), this));
  layout->addLayout(cmdRow);
  layout->addWidget(note_);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  setMinimumWidth(640);

  for (QRadioButton* b : {connect_, serve_, loopback_})
    QObject::connect(b, &QRadioButton::toggled, this, &DeviceRunDialog::update);
  QObject::connect(host_, &QLineEdit::textChanged, this, &DeviceRunDialog::update);
  QObject::connect(port_, &QSpinBox::valueChanged, this, &DeviceRunDialog::update);
  QObject::connect(copy, &QPushButton::clicked, this, [this] {
    if (QClipboard* c = QApplication::clipboard()) c->setText(command_->text());
  });
  QObject::connect(buttons, &QDialogButtonBox::accepted, this, &DeviceRunDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, this, &DeviceRunDialog::reject);
  update();
}

DeviceRunRequest DeviceRunDialog::request() const {
  DeviceRunRequest r;
  r.device = device_;
  r.scenario = scenario_;
  r.port = static_cast<std::uint16_t>(port_->value());
  r.peer = connect_->isChecked() ? DeviceRunRequest::Peer::Connect
           : serve_->isChecked() ? DeviceRunRequest::Peer::Serve
                                 : DeviceRunRequest::Peer::Loopback;
  if (r.peer == DeviceRunRequest::Peer::Connect) {
    QString error;
    if (!parsePeerAddress(host_->text(), r.host, r.port, error)) r.host.clear();
  }
  return r;
}

void DeviceRunDialog::setRequest(const DeviceRunRequest& r) {
  connect_->setChecked(r.peer == DeviceRunRequest::Peer::Connect);
  serve_->setChecked(r.peer == DeviceRunRequest::Peer::Serve);
  loopback_->setChecked(r.peer == DeviceRunRequest::Peer::Loopback);
  host_->setText(r.host);
  port_->setValue(r.port);
  update();
}

QString DeviceRunDialog::command() const {
  return command_->text();
}

QString DeviceRunDialog::error() const {
  const DeviceRunRequest r = request();
  if (r.peer == DeviceRunRequest::Peer::Connect) {
    QString host, error;
    std::uint16_t port = r.port;
    if (!parsePeerAddress(host_->text(), host, port, error)) return error;
  }
  return checkDeviceRun(r);
}

void DeviceRunDialog::update() {
  const DeviceRunRequest r = request();
  host_->setEnabled(r.peer == DeviceRunRequest::Peer::Connect);
  port_->setEnabled(r.peer == DeviceRunRequest::Peer::Serve);
  const QStringList own = interfaceAddresses(netdev_);
  command_->setText(r.peer == DeviceRunRequest::Peer::Loopback
                        ? tr("(nothing: both hosts run here)")
                        : peerCommand(r, own.isEmpty() ? QString() : own.front()));
  switch (r.peer) {
    case DeviceRunRequest::Peer::Connect:
      note_->setText(
          tr("This machine plays host 1 and connects; start the command above on "
             "the peer first (it waits up to 2 minutes)."));
      break;
    case DeviceRunRequest::Peer::Serve:
      note_->setText(tr("This machine plays host 0 and waits up to 2 minutes for the peer on TCP "
                        "port %1.")
                         .arg(r.port));
      break;
    case DeviceRunRequest::Peer::Loopback:
      note_->setText(
          tr("Traffic between two QPs of one device stays inside the device (rxe "
             "loops it back internally; a NIC does not put it on the wire): the run "
             "completes and its completions show, but no frame can be captured."));
      break;
  }
  error_->clear();
}

void DeviceRunDialog::accept() {
  const QString e = error();
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  QDialog::accept();
}

}  // namespace rdmascope::ui
