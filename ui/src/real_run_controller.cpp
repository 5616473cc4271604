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
#include <QStatusBar>
#include <QTimer>

#include "rdmascope/ui/live_capture_dialog.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/verbs_backend/scenario.h"

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

// The simulator's completions of a built-in scenario (empty when it cannot run).
QStringList simulatorCompletions(const QString& id) {
  try {
    const auto result =
        verbs_backend::runScenarioInSim(verbs_backend::builtinScenario(id.toStdString()));
    return completionLines(QString::fromStdString(result.completionsText()));
  } catch (const std::exception&) {
    return {};
  }
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
    runOnDevice(o.device, id);
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
  realCompletions_.clear();
  simCompletions_.clear();
  output_.clear();
  cancelled_ = false;
  stop_ = false;
  scenario_ = id;
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
  showCompletions(tr("Lab run of %1 on real Soft-RoCE").arg(scenario_), scenario_,
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

void RealRunController::showCompletions(const QString& title, const QString& id,
                                        const QString& where) {
  simCompletions_ = simulatorCompletions(id);
  int same = 0;
  for (qsizetype i = 0; i < std::min(realCompletions_.size(), simCompletions_.size()); ++i)
    if (withoutQpn(realCompletions_[i]) == withoutQpn(simCompletions_[i])) ++same;
  QString text = tr("Completions on real verbs (both hosts, as rdmascope-cli sim prints them):\n");
  text += realCompletions_.isEmpty() ? tr("(none)") : realCompletions_.join(QLatin1Char('\n'));
  text += tr("\n\nThe simulator's completions of the same scenario:\n");
  text += simCompletions_.isEmpty() ? tr("(none)") : simCompletions_.join(QLatin1Char('\n'));
  text += tr("\n\n%1 of %2 lines agree (QPNs ignored: they differ between runs). %3")
              .arg(same)
              .arg(std::max(realCompletions_.size(), simCompletions_.size()))
              .arg(where);
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

bool RealRunController::runOnDevice(const QString& device, const QString& id) {
  if (!beginRun(id)) return false;
  verbs_backend::Scenario scenario;
  try {
    scenario = verbs_backend::builtinScenario(id.toStdString());
  } catch (const std::exception& e) {
    fail(QString::fromStdString(e.what()));
    Q_EMIT finished(false);
    return false;
  }
  const QString netdev = netdevOfDevice(device);
  if (netdev.isEmpty()) {
    fail(tr("%1 has no network interface to capture on (no %2); is the device still there?")
             .arg(device,
                  QStringLiteral("/sys/class/infiniband/%1/ports/1/gid_attrs/ndevs").arg(device)));
    Q_EMIT finished(false);
    return false;
  }
  LiveCaptureDialog* live = window_->liveCaptureDialog();
  if (!live->start(netdev, &window_->frameStore())) {
    fail(tr("cannot capture on %1: %2").arg(netdev, live->lastError()));
    Q_EMIT finished(false);
    return false;
  }
  const QString title = tr("Running %1 on %2, capturing on %3").arg(id, device, netdev);
  startProgress(title);
  window_->statusBar()->showMessage(title);
  worker_ = std::thread([this, scenario = std::move(scenario), dev = device.toStdString()] {
    QString error;
    QStringList completions;
#ifdef RDMASCOPE_HAVE_IBVERBS
    verbs_backend::IbvOptions opts;
    opts.deviceName = dev;
    auto a = verbs_backend::IbvBackend::open(opts);
    auto b = a.ok() ? verbs_backend::IbvBackend::open(opts) : decltype(a){};
    if (!a.ok())
      error = QString::fromStdString(a.status.message);
    else if (!b.ok())
      error = QString::fromStdString(b.status.message);
    else {
      verbs_backend::ScenarioRun run(scenario, *a.value, *b.value);
      if (run.setupError()) error = QString::fromStdString(*run.setupError());
      while (error.isEmpty() && !run.done() && !stop_) {
        const auto o = run.step();
        ++deviceStep_;
        if (!o.ok) error = QString::fromStdString(o.text + ": " + o.message);
      }
      verbs_backend::RunResult r;
      r.completions = run.completions();
      r.hostNames[0] = scenario.hosts[0].name;
      r.hostNames[1] = scenario.hosts[1].name;
      completions = completionLines(QString::fromStdString(r.completionsText()));
    }
#else
    (void)scenario;
    (void)dev;
    error = QStringLiteral("this build has no libibverbs support");
#endif
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
  // Frames still in flight reach the capture within a moment; then stop it.
  QTimer::singleShot(300, this, [this] { window_->liveCaptureDialog()->stop(); });
  realCompletions_ = completions;
  lastError_ = cancelled_ ? tr("Run of %1 cancelled").arg(scenario_) : error;
  showCompletions(tr("%1 on a real device").arg(scenario_), scenario_, QString());
  if (!lastError_.isEmpty()) window_->statusBar()->showMessage(lastError_);
  Q_EMIT finished(lastError_.isEmpty());
}

}  // namespace rdmascope::ui
