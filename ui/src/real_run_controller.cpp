#include "rdmascope/ui/real_run_controller.h"

#include <signal.h>
#include <unistd.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>

#include "rdmascope/ui/live_capture_dialog.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "rdmascope/verbs_backend/scenario_side.h"

#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/ibv_backend.h"
#endif

namespace rdmascope::ui {

namespace {

QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString lastLine(const QString& text) {
  const auto lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.back().trimmed();
}

verbs_backend::Scenario loadScenario(const QString& id) {
  return verbs_backend::findScenario(id.toStdString());
}

QString plural(qsizetype n, const QString& one, const QString& many) {
  return n == 1 ? QStringLiteral("1 ") + one : QStringLiteral("%1 ").arg(n) + many;
}

}  // namespace

RealRunController::RealRunController(MainWindow* window, QComboBox* backendBox,
                                     BackendSearch search)
    : QObject(window), window_(window), box_(backendBox), search_(std::move(search)) {
  outRoot_ = QDir::tempPath();
  refresh();
}

RealRunController::~RealRunController() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
  if (process_ && process_->state() != QProcess::NotRunning) {
    ::kill(-static_cast<pid_t>(process_->processId()), SIGTERM);
    process_->waitForFinished(5000);
  }
}

void RealRunController::refresh() {
  inventory_ = discoverBackends(search_);
  fillBackendBox(box_, inventory_);
}

BackendOption RealRunController::chosen() const {
  const int i = box_->currentData().toInt();
  if (i < 0 || static_cast<std::size_t>(i) >= inventory_.options.size()) return {};
  return inventory_.options[static_cast<std::size_t>(i)];
}

QProgressDialog* RealRunController::progressDialog() const {
  return progress_.data();
}

bool RealRunController::busy() const {
  return (process_ && process_->state() != QProcess::NotRunning) || worker_.joinable();
}

bool RealRunController::runIfReal(const QString& id) {
  const BackendOption o = chosen();
  if (o.kind == BackendOption::Kind::Simulator) return false;
  if (o.kind == BackendOption::Kind::Lab)
    runInLab(id);
  else
    askAndRunOnDevice(o.device, id);
  return true;
}

void RealRunController::fail(const QString& line) {
  lastError_ = line;
  window_->statusBar()->showMessage(line);
  window_->explain(tr("Real run failed"), line);
  if (progress_) {
    progress_->disconnect(this);
    progress_->close();
    progress_->deleteLater();
  }
}

void RealRunController::startProgress(const QString& title) {
  if (progress_) progress_->deleteLater();
  progress_ = new QProgressDialog(title, tr("Cancel"), 0, 0, window_);
  progress_->setObjectName(QStringLiteral("realRunProgress"));
  progress_->setWindowTitle(tr("Real verbs run"));
  progress_->setMinimumDuration(0);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  progress_->setMinimumWidth(520);
  connect(progress_, &QProgressDialog::canceled, this, &RealRunController::cancel);
  progress_->show();
  clock_ = std::make_unique<QElapsedTimer>();
  clock_->start();
  auto* tick = new QTimer(progress_);
  connect(tick, &QTimer::timeout, this, [this, title] {
    if (!progress_ || !clock_) return;
    QString line =
        process_ && process_->state() != QProcess::NotRunning ? labPhase() : lastLine(output_);
    if (line.size() > 90) line = line.left(87) + QStringLiteral("...");
    progress_->setLabelText(tr("%1\n%2 s elapsed%3")
                                .arg(title)
                                .arg(clock_->elapsed() / 1000)
                                .arg(line.isEmpty() ? QString() : QStringLiteral("\n") + line));
  });
  tick->start(500);
}

bool RealRunController::beginRun(const QString& id) {
  if (busy()) {
    fail(tr("A real run is still going: cancel it first."));
    return false;
  }
  lastError_.clear();
  summary_.clear();
  agree_ = 0;
  realCompletions_.clear();
  simCompletions_.clear();
  programCompletions_.clear();
  output_.clear();
  cancelled_ = false;
  stop_ = false;
  scenario_ = id;
  return true;
}

bool RealRunController::showProgram(const QString& id) {
  const ScenarioRecording* rec = window_->scenario()->recording();
  if (!rec || rec->source != id.toStdString()) {
    const bool opened =
        QFileInfo(id).isFile() ? window_->openScenarioFile(id) : window_->openScenario(id);
    rec = window_->scenario()->recording();
    if (!opened || !rec) {
      fail(window_->lastError().isEmpty() ? tr("cannot show scenario %1").arg(id)
                                          : window_->lastError());
      Q_EMIT finished(false);
      return false;
    }
  }
  for (std::size_t h = 0; h < 2; ++h)
    programHosts_[h] = QString::fromStdString(rec->hostNames[h]);
  for (const auto& line : rec->completions)
    programCompletions_ << QString::fromStdString(line);
  return true;
}

bool RealRunController::runInLab(const QString& id) {
  if (!beginRun(id)) return false;
  QStringList looked;
  const QString cli = findCliBinary(search_, &looked);
  if (cli.isEmpty()) {
    fail(tr("rdmascope-cli not found (looked in %1): build it with "
            "cmake --build build/dev --target rdmascope-cli")
             .arg(looked.join(QStringLiteral(", "))));
    Q_EMIT finished(false);
    return false;
  }
  if (!showProgram(id)) return false;
  static int runs = 0;
  outDir_ = QDir(outRoot_).filePath(QStringLiteral("rdmascope-lab-%1-%2-%3")
                                        .arg(id)
                                        .arg(QCoreApplication::applicationPid())
                                        .arg(++runs));
  QDir(outDir_).removeRecursively();
  delete process_;
  process_ = new QProcess(this);
  process_->setProcessChannelMode(QProcess::MergedChannels);
  // Its own process group, so that cancel stops run-pair.sh and both qemu guests with it.
  process_->setChildProcessModifier([] { ::setsid(); });
  connect(process_, &QProcess::readyRead, this, [this] {
    const QString text = QString::fromUtf8(process_->readAll());
    output_ += text;
    for (const QString& l : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
      Q_EMIT progress(l);
  });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus st) {
    labFinished(code, st == QProcess::CrashExit);
  });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) {
      fail(tr("cannot start %1: %2").arg(process_->program(), process_->errorString()));
      Q_EMIT finished(false);
    }
  });
  const QString title = tr("Running %1 on two Soft-RoCE guests (about 40 s)").arg(id);
  startProgress(title);
  window_->statusBar()->showMessage(title);
  process_->start(cli, {QStringLiteral("lab"), QStringLiteral("run"), id, QStringLiteral("--out"),
                        outDir_, QStringLiteral("--timeout"), QStringLiteral("60")});
  return true;
}

QString RealRunController::labPhase() const {
  QStringList guests;
  for (int g = 1; g <= 2; ++g) {
    const QString dir = QStringLiteral("%1/guest%2/").arg(outDir_).arg(g);
    QString state;
    if (QFileInfo::exists(dir + QStringLiteral("exit-code")))
      state = tr("done");
    else if (!QFileInfo::exists(dir + QStringLiteral("console.log")))
      state = tr("preparing");
    else if (readText(dir + QStringLiteral("console.log"))
                 .contains(QStringLiteral("lab-init: guest %1 ready").arg(g)))
      state = tr("running the scenario");
    else
      state = tr("booting");
    guests << tr("guest %1 %2").arg(g).arg(state);
  }
  return guests.join(QStringLiteral(", "));
}

QString RealRunController::labFailureLine(int exitCode) const {
  for (int g = 1; g <= 2; ++g) {
    const QString err = readText(QStringLiteral("%1/guest%2/init-error").arg(outDir_).arg(g));
    if (!err.trimmed().isEmpty())
      return tr("lab boot failed on guest %1: %2").arg(g).arg(err.trimmed());
  }
  // run-pair.sh says why in a "lab: ..." line, rdmascope-cli in a "rdmascope-cli: ..." line.
  const auto lines = output_.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (it->startsWith(QLatin1String("lab: ")) || it->startsWith(QLatin1String("rdmascope-cli: ")))
      return it->trimmed();
  return tr("lab run %1 failed (exit %2); see %3").arg(scenario_).arg(exitCode).arg(outDir_);
}

void RealRunController::labFinished(int exitCode, bool crashed) {
  if (progress_) {
    progress_->disconnect(this);
    progress_->close();
    progress_->deleteLater();
  }
  if (cancelled_) {
    fail(tr("Lab run of %1 cancelled").arg(scenario_));
    Q_EMIT finished(false);
    return;
  }
  const QString capture = outDir_ + QStringLiteral("/capture.pcap");
  QString problem;
  if (crashed)
    problem = tr("rdmascope-cli lab run %1 crashed; see %2").arg(scenario_, outDir_);
  else if (exitCode != 0)
    problem = labFailureLine(exitCode);
  if (QFileInfo::exists(capture) && !window_->openCapture(capture) && problem.isEmpty())
    problem = window_->lastError();
  else if (!QFileInfo::exists(capture) && problem.isEmpty())
    problem = tr("the lab run brought back no capture (%1)").arg(capture);
  QString out;
  for (int g = 1; g <= 2; ++g)
    out += readText(QStringLiteral("%1/guest%2/output.txt").arg(outDir_).arg(g));
  realCompletions_ = completionLines(out);
  showCompletions(tr("Lab run of %1 on real Soft-RoCE").arg(scenario_),
                  tr("Results in %1 (capture.pcap, guest1/ and guest2/ output).").arg(outDir_));
  if (!problem.isEmpty()) {
    lastError_ = problem;
    window_->statusBar()->showMessage(problem);
    Q_EMIT finished(false);
    return;
  }
  window_->statusBar()->showMessage(
      tr("Lab run of %1: %2 captured, %3 on real verbs")
          .arg(scenario_,
               window_->frameStore().size() == 1
                   ? tr("1 frame")
                   : tr("%1 frames").arg(window_->frameStore().size()),
               realCompletions_.size() == 1 ? tr("1 completion")
                                            : tr("%1 completions").arg(realCompletions_.size())));
  Q_EMIT finished(true);
}

void RealRunController::showCompletions(const QString& title, const QString& where, int host,
                                        const QString& lead) {
  const QString hostName = host >= 0 ? programHosts_[static_cast<std::size_t>(host)] : QString();
  simCompletions_ = programCompletions_;
  if (!hostName.isEmpty())
    simCompletions_ = simCompletions_.filter(
        QRegularExpression(QStringLiteral("^%1 ").arg(QRegularExpression::escape(hostName))));
  agree_ = 0;
  for (qsizetype i = 0; i < std::min(realCompletions_.size(), simCompletions_.size()); ++i)
    if (withoutQpn(realCompletions_[i]) == withoutQpn(simCompletions_[i])) ++agree_;
  const QString whose =
      hostName.isEmpty() ? tr("both hosts") : tr("%1, the host this machine played").arg(hostName);
  QString text =
      tr("Completions on real verbs (%1, as rdmascope-cli sim prints them):\n").arg(whose);
  text += realCompletions_.isEmpty() ? tr("(none)") : realCompletions_.join(QLatin1Char('\n'));
  text += tr("\n\nThe completions of the program shown, in the simulator (%1):\n").arg(whose);
  text += simCompletions_.isEmpty() ? tr("(none)") : simCompletions_.join(QLatin1Char('\n'));
  text += tr("\n\n%1 of %2 lines agree (QPNs ignored: they differ between runs). %3")
              .arg(agree_)
              .arg(comparedLines())
              .arg(where);
  if (!lead.isEmpty()) text = lead + QStringLiteral("\n\n") + text;
  if (!lastError_.isEmpty()) text = lastError_ + QStringLiteral("\n\n") + text;
  window_->explain(title, text);
}

void RealRunController::cancel() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    cancelled_ = true;
    ::kill(-static_cast<pid_t>(process_->processId()), SIGTERM);
    const QPointer<QProcess> p = process_;
    QTimer::singleShot(5000, this, [p] {
      if (p && p->state() != QProcess::NotRunning)
        ::kill(-static_cast<pid_t>(p->processId()), SIGKILL);
    });
  }
  if (worker_.joinable()) {
    cancelled_ = true;
    stop_ = true;
  }
}

void RealRunController::askAndRunOnDevice(const QString& device, const QString& id) {
  if (dialog_) dialog_->deleteLater();
  dialog_ = new DeviceRunDialog(device, id, netdevOfDevice(device), window_);
  dialog_->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog_, &QDialog::accepted, this, [this] {
    if (dialog_) runDevice(dialog_->request());
  });
  dialog_->open();
}

void RealRunController::post(const QString& line) {
  QMetaObject::invokeMethod(
      this,
      [this, line] {
        output_ += line + QLatin1Char('\n');
        Q_EMIT progress(line);
      },
      Qt::QueuedConnection);
}

bool RealRunController::runDevice(const DeviceRunRequest& request) {
  if (!beginRun(request.scenario)) return false;
  request_ = request;
  auto refuse = [this](const QString& line) {
    fail(line);
    Q_EMIT finished(false);
    return false;
  };
  if (QString e = checkDeviceRun(request); !e.isEmpty()) return refuse(e);
  auto scenario = std::make_shared<verbs_backend::Scenario>();
  try {
    *scenario = loadScenario(request.scenario);
  } catch (const std::exception& e) {
    return refuse(QString::fromStdString(e.what()));
  }
  const bool loopback = request.peer == DeviceRunRequest::Peer::Loopback;
  netdev_ = netdevOfDevice(request.device);
  if (netdev_.isEmpty() && !loopback)
    return refuse(
        tr("%1 has no network interface to capture on (no %2); is the device still there?")
            .arg(request.device, QStringLiteral("/sys/class/infiniband/%1/ports/1/gid_attrs/ndevs")
                                     .arg(request.device)));
  std::shared_ptr<verbs_backend::Backend> hosts[2];
#ifdef RDMASCOPE_HAVE_IBVERBS
  verbs_backend::IbvOptions opts;
  opts.deviceName = request.device.toStdString();
  for (int h = 0; h < (loopback ? 2 : 1); ++h) {
    auto b = verbs_backend::IbvBackend::open(opts);
    if (!b.ok()) return refuse(QString::fromStdString(b.status.message));
    hosts[h] = std::move(b.value);
  }
#else
  return refuse(tr("this build has no libibverbs support"));
#endif
  // Before the live capture: it fills the window's frame store, which a scenario replaces.
  if (!showProgram(request.scenario)) return false;
  QString title;
  if (loopback) {
    title = tr("Running %1 with both hosts on %2 (nothing can be captured)")
                .arg(request.scenario, request.device);
  } else {
    LiveCaptureDialog* live = window_->liveCaptureDialog();
    if (!live->start(netdev_, &window_->frameStore())) return refuse(live->lastError());
    const QStringList own = interfaceAddresses(netdev_);
    title = tr("Running %1 on %2, capturing on %3\nOn the peer: %4")
                .arg(request.scenario, request.device, netdev_,
                     peerCommand(request, own.isEmpty() ? QString() : own.front()));
  }
  startProgress(title);
  window_->statusBar()->showMessage(title.section(QLatin1Char('\n'), 0, 0));
  verbs_backend::PeerEndpoint endpoint;
  endpoint.serve = request.peer == DeviceRunRequest::Peer::Serve;
  endpoint.host = request.host.toStdString();
  endpoint.port = request.port;
  worker_ = std::thread([this, scenario, hosts, endpoint, loopback] {
    QString error;
    QStringList completions;
    if (loopback) {
      verbs_backend::ScenarioRun run(*scenario, *hosts[0], *hosts[1]);
      run.setStop(&stop_);
      if (run.setupError()) error = QString::fromStdString(*run.setupError());
      while (error.isEmpty() && !run.done() && !stop_) {
        const auto o = run.step();
        ++deviceStep_;
        post(tr("step %1 %2: %3")
                 .arg(o.index)
                 .arg(QString::fromStdString(scenario->hosts[o.host].name),
                      QString::fromStdString(o.text)));
        if (!o.ok) error = QString::fromStdString(o.text + ": " + o.message);
      }
      for (const auto& [host, wc] : run.completions())
        completions << QString::fromStdString(
            verbs_backend::formatCompletion(scenario->hosts[host].name, wc));
    } else {
      verbs_backend::SideHooks hooks;
      hooks.stop = &stop_;
      hooks.note = [this](const std::string& l) { post(QString::fromStdString(l)); };
      hooks.waiting = [this](const std::string& what) {
        post(tr("waiting for %1").arg(QString::fromStdString(what)));
      };
      hooks.completion = [this, &completions](const std::string& l) {
        completions << QString::fromStdString(l);
        post(QString::fromStdString(l));
      };
      auto oob = verbs_backend::connectScenarioPeer(endpoint, std::chrono::seconds(120), hooks);
      if (!oob.ok()) {
        error = (endpoint.serve ? tr("no peer came: %1") : tr("peer unreachable: %1"))
                    .arg(QString::fromStdString(oob.status.message));
      } else {
        const auto r = verbs_backend::runScenarioSide(
            *scenario, verbs_backend::scenarioSideOf(endpoint), *hosts[0], oob.value, hooks);
        if (!r.ok) error = QString::fromStdString(r.error);
      }
    }
    QMetaObject::invokeMethod(
        this, [this, error, completions] { deviceFinished(error, completions); },
        Qt::QueuedConnection);
  });
  return true;
}

void RealRunController::deviceFinished(const QString& error, const QStringList& completions) {
  if (worker_.joinable()) worker_.join();
  if (progress_) {
    progress_->disconnect(this);
    progress_->close();
    progress_->deleteLater();
  }
  realCompletions_ = completions;
  lastError_ = cancelled_ ? tr("Run of %1 on %2 cancelled").arg(scenario_, request_.device) : error;
  if (request_.peer != DeviceRunRequest::Peer::Loopback) {
    // Frames still in flight reach the capture within a moment; then stop it and open it.
    QTimer::singleShot(300, this, [this] { finishPeerRun(lastError_); });
    return;
  }
  const QString where = netdev_.isEmpty() ? tr("the network") : netdev_;
  const QString why = tr("Nothing was captured: %1 loops traffic between its own QPs back "
                         "internally, so it never reaches %2; run with a peer machine to capture.")
                          .arg(request_.device, where);
  showCompletions(tr("%1 with both hosts on %2").arg(scenario_, request_.device), QString(), -1,
                  why);
  summary_ = tr("%1 ran with both hosts on %2: %3, %4 of %5 lines agree with the simulator. %6")
                 .arg(scenario_, request_.device,
                      plural(realCompletions_.size(), tr("completion"), tr("completions")))
                 .arg(agree_)
                 .arg(comparedLines())
                 .arg(why);
  window_->statusBar()->showMessage(
      lastError_.isEmpty()
          ? tr("%1 with both hosts on %2: %3 of %4 completion lines agree with the simulator; "
               "nothing captured (%2 loops it back internally)")
                .arg(scenario_, request_.device)
                .arg(agree_)
                .arg(comparedLines())
          : lastError_);
  Q_EMIT finished(lastError_.isEmpty());
}

void RealRunController::finishPeerRun(const QString& error) {
  LiveCaptureDialog* live = window_->liveCaptureDialog();
  live->stop();
  QString problem = error;
  static int runs = 0;
  outDir_ = QDir(outRoot_).filePath(QStringLiteral("rdmascope-device-%1-%2-%3")
                                        .arg(QFileInfo(scenario_).baseName())
                                        .arg(QCoreApplication::applicationPid())
                                        .arg(++runs));
  QDir().mkpath(outDir_);
  const QString capture = outDir_ + QStringLiteral("/capture.pcap");
  const std::size_t captured = window_->frameStore().size();
  if (!live->lastError().isEmpty() && problem.isEmpty())
    problem = tr("capture on %1: %2").arg(netdev_, live->lastError());
  // Opened like the lab's capture: the packet views, the analysis and Save all see a file.
  if (captured > 0 && window_->saveFrames(capture) && !window_->openCapture(capture) &&
      problem.isEmpty())
    problem = window_->lastError();
  std::size_t good = 0;
  for (std::size_t i = 0; i < window_->frameStore().size(); ++i)
    if (window_->frameStore().decode(i).crc == packets::CrcStatus::Good) ++good;
  const QString peer = request_.peer == DeviceRunRequest::Peer::Serve
                           ? tr("a peer on port %1").arg(request_.port)
                           : tr("the peer %1:%2").arg(request_.host).arg(request_.port);
  lastError_ = problem;
  showCompletions(tr("%1 on %2 with %3").arg(scenario_, request_.device, peer),
                  captured ? tr("Capture: %1").arg(capture) : QString(),
                  request_.peer == DeviceRunRequest::Peer::Serve ? 0 : 1);
  summary_ = tr("%1 on %2 with %3: %4 captured on %5 (%6 with a good ICRC), %7, %8 of %9 lines "
                "agree with the simulator")
                 .arg(scenario_, request_.device, peer,
                      plural(static_cast<qsizetype>(captured), tr("frame"), tr("frames")), netdev_)
                 .arg(good)
                 .arg(plural(realCompletions_.size(), tr("completion"), tr("completions")))
                 .arg(agree_)
                 .arg(comparedLines());
  if (captured == 0 && problem.isEmpty())
    problem = lastError_ = tr("nothing was captured on %1 although the run completed").arg(netdev_);
  window_->statusBar()->showMessage(problem.isEmpty() ? summary_ : problem);
  Q_EMIT finished(problem.isEmpty());
}

}  // namespace rdmascope::ui
