#pragma once
/// @file real_run_controller.h
/// Runs a scenario on real verbs while capturing, for the main window's backend choice:
/// - the Soft-RoCE lab: `rdmascope-cli lab run NAME --out DIR` as a child process (two qemu
///   guests, about 40 s), with progress and cancel; then the capture it brings back is opened
///   in the packet list and both guests' completions are shown beside the simulator's;
/// - a local device (device_run.h): this machine plays one host of the scenario on a worker
///   thread (verbs_backend::runScenarioSide) while the live capture captures on the device's
///   network interface, and a peer machine plays the other host (`rdmascope-cli verbs
///   --server`, or `--connect` to this one); when the run ends the capture opens in the packet
///   views and this host's completions are set beside the simulator's. Both hosts on the one
///   device also runs, without a capture (the device loops that traffic back internally).
/// Errors (no cli, capture not permitted, device gone, peer unreachable, peer runs another
/// scenario, lab boot failed) are one line in the window; the application keeps running.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <thread>

#include "rdmascope/ui/backend_choice.h"
#include "rdmascope/ui/device_run.h"

class QComboBox;
class QProcess;
class QProgressDialog;
class QElapsedTimer;

namespace rdmascope::ui {

class MainWindow;

class RealRunController : public QObject {
  Q_OBJECT
 public:
  /// Fills `backendBox` from discoverBackends(search) and keeps it.
  RealRunController(MainWindow* window, QComboBox* backendBox, BackendSearch search = {});
  ~RealRunController() override;

  const BackendInventory& inventory() const { return inventory_; }
  /// Reads the devices and the lab prerequisites again and refills the box.
  void refresh();
  /// The option chosen in the box.
  BackendOption chosen() const;
  /// Runs scenario `id` on the chosen backend. False when the simulator is chosen (the caller
  /// runs it) ; true when a real run was started or refused with an error line.
  bool runIfReal(const QString& id);
  /// Starts the lab run of scenario `id`. False (with lastError()) when it cannot start.
  bool runInLab(const QString& id);
  /// Asks (DeviceRunDialog, not modal) how to run scenario `id` on `device`, then runs it.
  void askAndRunOnDevice(const QString& device, const QString& id);
  /// Starts a device run (see device_run.h). False (with lastError()) when it cannot start.
  bool runDevice(const DeviceRunRequest& request);
  /// Stops a run (the lab's guests are stopped with their process group).
  void cancel();
  bool busy() const;

  /// The last error line (empty after a run that succeeded).
  QString lastError() const { return lastError_; }
  /// Completion lines of the real run as `rdmascope-cli sim` prints them: both hosts (lab,
  /// both hosts on one device), or this machine's host (a run with a peer).
  const QStringList& realCompletions() const { return realCompletions_; }
  /// The completions of the program the window showed as the run started (the recording of
  /// the same scenario in the simulator: ScenarioRecording::completions), of the same host(s).
  const QStringList& simulatedCompletions() const { return simCompletions_; }
  /// How many real completion lines equal the simulator's (QPNs ignored), of how many.
  int agreeingLines() const { return agree_; }
  int comparedLines() const {
    return static_cast<int>(std::max(realCompletions_.size(), simCompletions_.size()));
  }
  /// One line on the last run: what ran where, frames captured and their ICRCs, completions.
  QString summary() const { return summary_; }
  /// The dialog of askAndRunOnDevice while it is open.
  DeviceRunDialog* deviceDialog() const { return dialog_.data(); }
  /// Where the lab run put its results.
  QString outDir() const { return outDir_; }
  /// The program output of the lab run so far.
  QString output() const { return output_; }
  QProgressDialog* progressDialog() const;
  /// Override the folder lab runs write into (default: the temporary folder).
  void setOutputRoot(const QString& dir) { outRoot_ = dir; }

 Q_SIGNALS:
  /// A line of progress (the lab's output, a device step).
  void progress(const QString& line);
  /// The run ended; ok is false on error or cancel (lastError() says which).
  void finished(bool ok);

 private:
  /// Refuses while a run is going; otherwise forgets the last run's results. False when busy.
  bool beginRun(const QString& id);
  /// Makes the window show scenario `id` (a built-in or a file), recording it unless it shows
  /// it already, and keeps its completions: what the real run is compared with. False (after
  /// fail() and finished(false)) when it cannot be shown.
  bool showProgram(const QString& id);
  void fail(const QString& line);
  void startProgress(const QString& title);
  void labFinished(int exitCode, bool crashed);
  void deviceFinished(const QString& error, const QStringList& completions);
  /// After the capture stopped: opens it in the packet views and reports the run.
  void finishPeerRun(const QString& error);
  /// Sets the completions beside the simulator's (of `host`, or both hosts when -1), after
  /// the error and `lead`, and before `where`.
  void showCompletions(const QString& title, const QString& where, int host = -1,
                       const QString& lead = {});
  /// Posts a progress line from the worker thread.
  void post(const QString& line);
  QString labFailureLine(int exitCode) const;
  /// What each guest is doing, from the files run-pair.sh and the guests write.
  QString labPhase() const;

  MainWindow* window_;
  QComboBox* box_;
  BackendSearch search_;
  BackendInventory inventory_;
  QString outRoot_;
  QString lastError_;
  QString scenario_;
  QString outDir_;
  QString output_;
  QStringList realCompletions_, simCompletions_;
  QStringList programCompletions_;  ///< of both hosts, from the recording shown
  std::array<QString, 2> programHosts_;
  int agree_ = 0;
  QString summary_;
  DeviceRunRequest request_;
  QString netdev_;
  QPointer<DeviceRunDialog> dialog_;
  QProcess* process_ = nullptr;
  QPointer<QProgressDialog> progress_;
  std::unique_ptr<QElapsedTimer> clock_;
  bool cancelled_ = false;
  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<int> deviceStep_{0};
};

}  // namespace rdmascope::ui
