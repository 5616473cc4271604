#pragma once
/// @file main_window.h
/// The rdmascope main window: scenario controls, the two hosts with the ladder between them,
/// the packet pane, the layer stacks and the event list, all kept in step with one current
/// event (a scenario) or frame (a capture).

#include <QMainWindow>
#include <QString>
#include <memory>

#include "rdmascope/ui/frame_store.h"

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTimer;

namespace rdmascope::ui {

class AnalysisController;
class ComparisonView;
class CephMessengerView;
class CongestionRunView;
class DataPathPane;
class EventListModel;
class FabricSession;
class FabricView;
class HostPane;
class LadderView;
class LiveCaptureDialog;
class PacketPane;
class RealRunController;
class ScenarioController;
class ScenarioReloadBar;
class TransferFollower;
class TransportHostPane;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// Opens on the built-in tour scenario unless `startScenario` is empty.
  explicit MainWindow(QWidget* parent = nullptr, const QString& startScenario = "tour");
  ~MainWindow() override;

  /// Opens a pcap/pcapng file (progress dialog, cancellable). On failure shows a message box and
  /// the status line and returns false; the window stays usable and keeps what it showed.
  bool openCapture(const QString& path);
  /// Writes the frames shown (a simulated run's or an opened capture's) to a pcap, or pcapng
  /// when the name ends in ".pcapng". On failure shows the one-line error and returns false;
  /// an existing file is replaced only by a complete one.
  bool saveFrames(const QString& path);
  /// The live capture dialog (created on first use).
  LiveCaptureDialog* liveCaptureDialog();
  /// Runs a built-in scenario ("tour") and shows it before its first event.
  bool openScenario(const QString& id);
  /// Opens (or raises) the Ceph messenger window, run with its defaults ("ceph-messenger" and
  /// "ceph-messenger-tcp" as --scenario names open it too).
  CephMessengerView* showCephMessenger();
  /// Runs a scenario JSON file (verbs_backend's format); errors are shown like capture errors.
  /// The file is watched: when it changes on disk, the reload bar offers to reload it.
  bool openScenarioFile(const QString& path);
  /// Runs the watched scenario file again, keeping the current event (the last one when the
  /// scenario has fewer now). False, with the error shown, when it no longer reads.
  bool reloadScenarioFile();
  /// Writes the scenario shown as JSON (File > Save Scenario As: a built-in becomes a file to
  /// edit) and watches that file. False, with the error shown, when it cannot be written.
  bool saveScenarioAs(const QString& path);
  /// Offers to reload the scenario file when it changes on disk.
  ScenarioReloadBar* reloadBar() const { return reloadBar_; }
  /// Attaches to the fabric at `socketPath` (`rdmascope-cli fabric`; the default socket when
  /// empty) and shows it live: a pane per attached program, the ladder, the call timeline, its
  /// frames in the packet pane. On failure shows the one-line error and returns false.
  bool attachFabric(const QString& socketPath);
  /// The fabric session (created on first use) and its view.
  FabricSession* fabricSession();
  FabricView* fabricView() const { return fabricView_; }
  /// Runs a congestion scenario file (examples/congestion, sim/topology.h) and steps through
  /// it: the fabric, queue, rate and pause views above the ladder; its captured frames in the
  /// packet pane (main_window_congestion.cpp). Errors are shown like capture errors.
  bool openCongestionScenario(const QString& path);
  /// The congestion run's views (hidden unless a congestion scenario is shown).
  CongestionRunView* congestionRun() const { return congestion_; }
  /// A congestion scenario is shown: the Go menu's steps move its time cursor.
  bool congestionMode() const;
  /// The last error shown to the user (empty when none).
  QString lastError() const { return lastError_; }

  PacketPane* packetPane() const { return packets_; }
  FrameStore& frameStore() { return *store_; }
  DataPathPane* dataPathPane() const { return dataPath_; }
  ComparisonView* comparisonView() const { return comparison_; }
  QTabWidget* lowerTabs() const { return lowerTabs_; }
  QTextBrowser* explanation() const { return explanation_; }
  ScenarioController* scenario() const { return scenario_; }
  HostPane* hostPane(int host) const { return hosts_[host]; }
  /// The host panes of TCP and iWARP recordings (socket buffers, rdma_cm, MPA, DDP).
  TransportHostPane* transportPane(int host) const { return transportPanes_[host]; }
  /// Go > Connect with rdma_cm: verbs scenarios are recorded with the simulated rdma_cm.
  QAction* cmAction() const { return cmAction_; }
  /// Runs the scenario shown over the transport picked in the Transport box (item data: a
  /// sim::WireFormat, kTransportIwarp or kTransportTcpSockets); the scenario follows when it
  /// cannot run there, with a note in the status bar.
  bool chooseTransport(int transport);
  LadderView* ladder() const { return ladder_; }
  EventListModel* eventModel() const { return eventModel_; }
  /// The flow analysis of what the window shows (Conversations, Anomalies, Flow Graph, Plot).
  AnalysisController* analysis() const { return analysis_; }
  /// Runs scenarios on the backend chosen in the toolbar when it is not the simulator.
  RealRunController* realRun() const { return realRun_; }
  /// Feeds the current event's transfer to the comparison and the TCP data path.
  TransferFollower* transferFollower() const { return transfer_; }
  /// Shows text in the explanation pane (the current event's or step's explanation).
  void explain(const QString& title, const QString& text);
  /// Starts or pauses running through the scenario's events.
  void setRunning(bool run);
  bool running() const;

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  QWidget* createScenarioBar();
  void showError(const QString& title, const QString& message);
  void openCaptureDialog();
  void onFrameSelected(qint64 frame);
  void onEventChanged(int event);
  void reportProblem();
  /// Scenario mode shows the hosts and the ladder; capture mode gives the packets the room.
  void setScenarioMode(bool on, const QString& capture = {});
  /// Fabric mode shows the fabric view in place of the scenario's hosts and ladder.
  void setFabricMode(bool on);
  /// Stops following a fabric (before a scenario, a capture or a live capture replaces it).
  void leaveFabric();
  /// Shows a frame in every view (the scenario moves to the event that sent it).
  void showFrame(qint64 frame);
  void analysisChanged();
  /// Shows the congestion run's step: explanation, frames up to its time, the step counter.
  void showCongestionStep();
  /// Puts the scenario's views back when a congestion run gives way to something else.
  void leaveCongestion();

  std::unique_ptr<FrameStore> store_;
  PacketPane* packets_ = nullptr;
  DataPathPane* dataPath_ = nullptr;
  ComparisonView* comparison_ = nullptr;
  QTextBrowser* explanation_ = nullptr;
  HostPane* hosts_[2] = {nullptr, nullptr};
  TransportHostPane* transportPanes_[2] = {nullptr, nullptr};
  QAction* cmAction_ = nullptr;
  LadderView* ladder_ = nullptr;
  EventListModel* eventModel_ = nullptr;
  QTableView* eventView_ = nullptr;
  QTabWidget* lowerTabs_ = nullptr;
  QSplitter* mainSplit_ = nullptr;
  QWidget* scenarioTop_ = nullptr;  // the hosts, the ladder and the explanation
  CongestionRunView* congestion_ = nullptr;
  CephMessengerView* ceph_ = nullptr;
  QAction* nextCongestionEvent_ = nullptr;
  QAction* previousCongestionEvent_ = nullptr;
  FabricSession* fabric_ = nullptr;
  FabricView* fabricView_ = nullptr;
  ScenarioController* scenario_ = nullptr;
  ScenarioReloadBar* reloadBar_ = nullptr;
  LiveCaptureDialog* live_ = nullptr;
  AnalysisController* analysis_ = nullptr;
  QLabel* statusAnalysis_ = nullptr;
  QComboBox* scenarioBox_ = nullptr;
  QComboBox* wireBox_ = nullptr;
  QComboBox* backendBox_ = nullptr;
  QSpinBox* eventSpin_ = nullptr;
  QSlider* speed_ = nullptr;
  QLabel* eventTotal_ = nullptr;
  QWidget* stepControls_ = nullptr;  // step buttons, event and speed: scenario mode only
  QLabel* modeLabel_ = nullptr;      // names the capture in capture mode
  QAction* runAction_ = nullptr;
  QTimer* runTimer_ = nullptr;
  QLabel* statusFrames_ = nullptr;
  QString lastError_;
  QString capturePath_;
  RealRunController* realRun_ = nullptr;
  TransferFollower* transfer_ = nullptr;
};

}  // namespace rdmascope::ui
