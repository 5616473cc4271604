#pragma once
/// @file analysis_controller.h
/// Runs the flow analysis of what the window shows and keeps its views in step: the
/// Conversations table, the anomaly list, the flow graph and the plot of one connection.
/// A whole store is analysed on a worker thread (cancelled like a capture load); a live capture
/// is analysed as its frames arrive.

#include <QObject>
#include <atomic>
#include <memory>

#include "rdmascope/ui/capture_analysis.h"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QThread;
class QTimer;
class QWidget;

namespace rdmascope::ui {

class AnalysisPlot;
class AnomalyModel;
class CongestionView;
class ConversationModel;
class FlowGraphView;

class AnalysisController : public QObject {
  Q_OBJECT
 public:
  /// The views are created as children of `parent` (the caller places them).
  AnalysisController(QWidget* parent);
  ~AnalysisController() override;

  /// Analyses every frame of `store` on a worker thread; a run in progress is cancelled first.
  /// The store must not change until cancel() or the run ends (analysisReady).
  void start(const FrameStore* store);
  /// Stops a run in progress and waits for its thread. Call before changing the store.
  void cancel();
  /// Forgets the analysis (the views go empty).
  void clear();
  /// True while a worker thread runs.
  bool busy() const { return thread_ != nullptr; }
  /// Runs the event loop until the analysis is published (tests, --screenshot); false on
  /// timeout.
  bool waitForIdle(int timeoutMs = 30000);

  /// A live capture starts filling `store`: analyse its frames as they arrive.
  void beginLive(const FrameStore* store);
  /// Frames were appended to the live store (published at most twice a second).
  void liveAppended();
  /// The live capture stopped: its messages in flight are incomplete.
  void endLive();

  std::shared_ptr<const CaptureAnalysis> analysis() const { return analysis_; }
  /// Anomalies found (all, also those beyond the kept list).
  std::uint64_t anomalyCount() const;
  /// Anomalies found at frames 1..`frames` (a scenario stepped so far has put only those on the
  /// wire); those tied to no frame count once every frame is shown.
  std::uint64_t anomalyCountUpTo(std::uint64_t frames) const;

  /// Picks a connection for the flow graph and the plot and selects its Conversations row.
  void selectConnection(int id);
  int selectedConnection() const;
  /// The frame the packet list shows (-1 none): highlighted in the flow graph.
  void setCurrentFrame(qint64 frame);

  ConversationModel* conversationModel() const { return conversations_; }
  AnomalyModel* anomalyModel() const { return anomalies_; }
  QSortFilterProxyModel* conversationProxy() const { return conversationProxy_; }
  /// Tab pages: the table, the list, the graph and the plot (each with its header line).
  QWidget* conversationsPage() const { return conversationsPage_; }
  QWidget* anomaliesPage() const { return anomaliesPage_; }
  QWidget* flowGraphPage() const { return flowPage_; }
  QWidget* plotPage() const { return plotPage_; }
  /// PFC pauses, ECN marks and CNPs of the capture (congestion_view.h).
  CongestionView* congestionPage() const { return congestion_; }
  QTableView* conversationsView() const { return conversationsView_; }
  QTableView* anomaliesView() const { return anomaliesView_; }
  FlowGraphView* flowGraph() const { return flow_; }
  AnalysisPlot* plot() const { return plot_; }

 Q_SIGNALS:
  /// A run started (frames to analyse).
  void started(qint64 frames);
  /// Progress of a run, 0..1000.
  void progress(int permille);
  /// A new analysis is shown (nullptr after clear()).
  void analysisChanged();
  /// The user asked to see a frame (an anomaly activated, a flow graph row or marker clicked).
  void frameActivated(qint64 frame);
  /// The user picked a connection in Conversations: `filter` shows just its frames.
  void connectionChosen(int id, const QString& filter);

 private:
  void publish(std::shared_ptr<const CaptureAnalysis> analysis);
  void pickConnection(int id, bool fromTable);
  void refreshChoosers();

  QWidget* parentWidget_;
  ConversationModel* conversations_;
  AnomalyModel* anomalies_;
  QSortFilterProxyModel* conversationProxy_;
  QWidget* conversationsPage_;
  QWidget* anomaliesPage_;
  QWidget* flowPage_;
  QWidget* plotPage_;
  QTableView* conversationsView_;
  QTableView* anomaliesView_;
  QLabel* summary_;
  FlowGraphView* flow_;
  AnalysisPlot* plot_;
  CongestionView* congestion_;
  QComboBox* flowChooser_;
  QComboBox* plotChooser_;

  std::shared_ptr<const CaptureAnalysis> analysis_;
  const FrameStore* store_ = nullptr;
  QThread* thread_ = nullptr;
  std::atomic<bool> cancel_{false};
  std::atomic<std::size_t> done_{0};
  std::size_t total_ = 0;
  QTimer* tick_;
  std::uint64_t generation_ = 0;

  std::unique_ptr<CaptureAnalysisBuilder> live_;
  QTimer* livePublish_;
  int selected_ = -1;
  qint64 currentFrame_ = -1;  // the packet list's
  bool syncing_ = false;
};

}  // namespace rdmascope::ui
