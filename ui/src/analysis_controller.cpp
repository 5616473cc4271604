#include "rdmascope/ui/analysis_controller.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include "rdmascope/ui/analysis_models.h"
#include "rdmascope/ui/analysis_plot.h"
#include "rdmascope/ui/congestion_view.h"
#include "rdmascope/ui/flow_graph_view.h"

namespace rdmascope::ui {

namespace {

QTableView* makeTable(QWidget* parent, const QString& name) {
  auto* v = new QTableView(parent);
  v->setObjectName(name);
  v->verticalHeader()->hide();
  v->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 4);
  v->horizontalHeader()->setStretchLastSection(true);
  v->horizontalHeader()->setHighlightSections(false);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setShowGrid(false);
  v->setWordWrap(false);
  v->setAlternatingRowColors(true);
  return v;
}

QWidget* chooserPage(QWidget* parent, QComboBox* chooser, QWidget* view, const QString& hint) {
  auto* page = new QWidget(parent);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(new QLabel(QObject::tr("Connection:"), page));
  bar->addWidget(chooser, 1);
  auto* h = new QLabel(hint, page);
  h->setForegroundRole(QPalette::PlaceholderText);
  bar->addWidget(h);
  auto* l = new QVBoxLayout(page);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(0);
  l->addLayout(bar);
  l->addWidget(view, 1);
  return page;
}

}  // namespace

AnalysisController::AnalysisController(QWidget* parent)
    : QObject(parent),
      parentWidget_(parent),
      conversations_(new ConversationModel(this)),
      anomalies_(new AnomalyModel(this)),
      conversationProxy_(new QSortFilterProxyModel(this)),
      tick_(new QTimer(this)),
      livePublish_(new QTimer(this)) {
  conversationProxy_->setSourceModel(conversations_);
  conversationProxy_->setSortRole(kSortRole);

  conversationsPage_ = new QWidget(parent);
  conversationsPage_->setObjectName(QStringLiteral("conversationsPage"));
  summary_ = new QLabel(conversationsPage_);
  summary_->setObjectName(QStringLiteral("analysisSummary"));
  summary_->setWordWrap(true);
  summary_->setContentsMargins(6, 3, 6, 3);
  conversationsView_ = makeTable(conversationsPage_, QStringLiteral("conversations"));
  conversationsView_->setModel(conversationProxy_);
  conversationsView_->setSortingEnabled(true);
  conversationsView_->sortByColumn(-1, Qt::AscendingOrder);  // capture order until asked
  conversationsView_->horizontalHeader()->setSortIndicatorShown(true);
  conversationsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  {
    const int cw = conversationsView_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const int widths[] = {8, 9, 21, 21, 7, 9, 9, 11, 10, 9, 9, 6, 9, 8, 6, 9, 10};
    for (int c = 0; c < ConversationModel::ColumnCount; ++c)
      conversationsView_->setColumnWidth(c, cw * widths[c]);
  }
  auto* cl = new QVBoxLayout(conversationsPage_);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->setSpacing(0);
  cl->addWidget(summary_);
  cl->addWidget(conversationsView_, 1);

  anomaliesView_ = makeTable(parent, QStringLiteral("anomalies"));
  anomaliesView_->setModel(anomalies_);
  {
    const int cw = anomaliesView_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    anomaliesView_->setColumnWidth(AnomalyModel::Kind, cw * 18);
    anomaliesView_->setColumnWidth(AnomalyModel::Frame, cw * 8);
    anomaliesView_->setColumnWidth(AnomalyModel::Time, cw * 11);
    anomaliesView_->setColumnWidth(AnomalyModel::Connection, cw * 26);
  }
  anomaliesPage_ = anomaliesView_;

  flow_ = new FlowGraphView(parent);
  plot_ = new AnalysisPlot(parent);
  flowChooser_ = new QComboBox(parent);
  flowChooser_->setObjectName(QStringLiteral("flowConnection"));
  plotChooser_ = new QComboBox(parent);
  plotChooser_->setObjectName(QStringLiteral("plotConnection"));
  flowPage_ = chooserPage(parent, flowChooser_, flow_, tr("click a frame to select it"));
  flowPage_->setObjectName(QStringLiteral("flowGraphPage"));
  plotPage_ = chooserPage(parent, plotChooser_, plot_, tr("click a marker to see its frame"));
  plotPage_->setObjectName(QStringLiteral("plotPage"));
  congestion_ = new CongestionView(parent);

  connect(conversationsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) {
            if (syncing_ || !cur.isValid()) return;
            const int row = conversationProxy_->mapToSource(cur).row();
            pickConnection(conversations_->connectionAt(row), true);
          });
  // Clicking the row already current applies its filter again (after the user cleared it).
  connect(conversationsView_, &QTableView::clicked, this, [this](const QModelIndex& idx) {
    pickConnection(conversations_->connectionAt(conversationProxy_->mapToSource(idx).row()), true);
  });
  auto activateAnomaly = [this](const QModelIndex& idx) {
    const auto* a = anomalies_->anomalyAt(idx.row());
    if (!a) return;
    if (a->connection >= 0 && a->connection != selected_) pickConnection(a->connection, false);
    const qint64 frame = anomalies_->frameAt(idx.row());
    if (frame >= 0) {
      flow_->setCurrentFrame(frame);
      Q_EMIT frameActivated(frame);
    }
  };
  connect(anomaliesView_, &QTableView::activated, this, activateAnomaly);
  connect(anomaliesView_, &QTableView::clicked, this, activateAnomaly);
  connect(flow_, &FlowGraphView::frameClicked, this, &AnalysisController::frameActivated);
  connect(congestion_, &CongestionView::frameActivated, this, &AnalysisController::frameActivated);
  connect(plot_, &AnalysisPlot::frameClicked, this, [this](qint64 frame) {
    flow_->setCurrentFrame(frame);
    Q_EMIT frameActivated(frame);
  });
  for (QComboBox* chooser : {flowChooser_, plotChooser_})
    connect(chooser, &QComboBox::activated, this,
            [this, chooser](int index) { pickConnection(chooser->itemData(index).toInt(), true); });

  connect(tick_, &QTimer::timeout, this, [this] {
    if (total_)
      Q_EMIT progress(static_cast<int>(std::min<std::size_t>(999, done_ * 1000 / total_)));
  });
  livePublish_->setSingleShot(true);
  connect(livePublish_, &QTimer::timeout, this, [this] {
    if (live_) publish(std::make_shared<CaptureAnalysis>(live_->snapshot(false)));
  });
  publish(nullptr);
}

AnalysisController::~AnalysisController() {
  cancel();
}

void AnalysisController::cancel() {
  ++generation_;
  tick_->stop();
  if (!thread_) return;
  cancel_ = true;
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
}

void AnalysisController::clear() {
  cancel();
  live_.reset();
  livePublish_->stop();
  publish(nullptr);
}

void AnalysisController::start(const FrameStore* store) {
  clear();
  store_ = store;
  cancel_ = false;
  done_ = 0;
  total_ = store->size();
  const std::uint64_t gen = generation_;
  auto outcome = std::make_shared<AnalysisOutcome>();
  thread_ = QThread::create([this, store, outcome] {
    *outcome =
        analyzeFrameStore(*store, &cancel_, [this](std::size_t d, std::size_t) { done_ = d; });
  });
  connect(thread_, &QThread::finished, this, [this, gen, outcome] {
    if (gen != generation_ || !thread_) return;  // cancelled: a newer run or none owns the views
    tick_->stop();
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
    if (!outcome->cancelled) {
      Q_EMIT progress(1000);
      publish(std::make_shared<CaptureAnalysis>(std::move(outcome->analysis)));
    }
  });
  Q_EMIT started(static_cast<qint64>(total_));
  tick_->start(100);
  thread_->start(QThread::LowPriority);
}

bool AnalysisController::waitForIdle(int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (busy() && t.elapsed() < timeoutMs)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  if (live_ && livePublish_->isActive()) {
    livePublish_->stop();
    publish(std::make_shared<CaptureAnalysis>(live_->snapshot(false)));
  }
  return !busy();
}

void AnalysisController::beginLive(const FrameStore* store) {
  clear();
  store_ = store;
  live_ = std::make_unique<CaptureAnalysisBuilder>();
}

void AnalysisController::liveAppended() {
  if (!live_ || !store_) return;
  for (std::size_t i = live_->added(); i < store_->size(); ++i)
    live_->add(*store_, i);
  if (!livePublish_->isActive()) livePublish_->start(500);
}

void AnalysisController::endLive() {
  if (!live_) return;
  liveAppended();
  livePublish_->stop();
  publish(std::make_shared<CaptureAnalysis>(live_->snapshot(true)));
  live_.reset();
}

std::uint64_t AnalysisController::anomalyCount() const {
  if (!analysis_) return 0;
  return analysis_->report.anomalies.size() + analysis_->report.anomaliesDropped;
}

std::uint64_t AnalysisController::anomalyCountUpTo(std::uint64_t frames) const {
  if (!analysis_) return 0;
  const std::uint64_t total = analysis_->report.summary.frames;
  std::uint64_t n = 0;
  for (const auto& a : analysis_->report.anomalies)
    if (a.frame > 0 ? a.frame <= frames : frames >= total) ++n;
  return n + (frames >= total ? analysis_->report.anomaliesDropped : 0);
}

int AnalysisController::selectedConnection() const {
  return selected_;
}

void AnalysisController::refreshChoosers() {
  for (QComboBox* chooser : {flowChooser_, plotChooser_}) {
    const QSignalBlocker block(chooser);
    chooser->clear();
    if (!analysis_) continue;
    for (const auto& c : analysis_->report.connections)
      chooser->addItem(
          tr("#%1  %2  %3 \u2194 %4  (%5 frames)")
              .arg(c.id + 1)
              .arg(QString::fromStdString(c.transport), endpointText(c.a), endpointText(c.b))
              .arg(c.frames),
          c.id);
  }
}

void AnalysisController::publish(std::shared_ptr<const CaptureAnalysis> analysis) {
  analysis_ = std::move(analysis);
  const int keep = selected_;
  syncing_ = true;
  conversations_->setAnalysis(analysis_);
  anomalies_->setAnalysis(analysis_);
  flow_->setAnalysis(analysis_, store_);
  plot_->setAnalysis(analysis_);
  congestion_->setAnalysis(analysis_);
  refreshChoosers();
  syncing_ = false;
  selected_ = -1;
  if (!analysis_) {
    summary_->setText(tr("No analysis yet: open a capture or run a scenario."));
  } else {
    const auto& s = analysis_->report.summary;
    // The counts of the carriers present: PSN, NAK and ICRC findings mean nothing for iWARP.
    QStringList counts;
    if (s.rdmaFrames > 0 || s.iwarpFrames == 0)
      counts << tr("%1 NAKs").arg(s.naks) << tr("%1 RNR NAKs").arg(s.rnrNaks)
             << tr("%1 PSN gaps").arg(s.psnGaps) << tr("%1 ICRC failures").arg(s.icrcFailures)
             << tr("%1 CNPs").arg(s.cnps);
    counts << tr("%1 resent frames").arg(s.resentFrames) << tr("%1 duplicates").arg(s.duplicates)
           << tr("%1 timeouts").arg(s.timeouts);
    if (s.iwarpFrames > 0)
      counts << tr("%1 TCP segment gaps").arg(s.segmentGaps)
             << tr("%1 out of order").arg(s.outOfOrderSegments)
             << tr("%1 MPA CRC failures").arg(s.crcFailures)
             << tr("%1 Terminates").arg(s.terminates) << tr("%1 MPA rejects").arg(s.mpaRejects);
    counts << tr("%1 incomplete messages").arg(s.incompleteMessages);
    QString text = tr("<b>%1</b> connections, <b>%2</b> messages, <b>%3</b> anomalies (%4) in %5 "
                      "frames.")
                       .arg(s.connections)
                       .arg(s.messages)
                       .arg(anomalyCount())
                       .arg(counts.join(QStringLiteral(", ")))
                       .arg(s.frames);
    if (s.connections)
      text +=
          tr(" Select a connection to filter the packet list to it and to draw its flow "
             "graph and plot.");
    summary_->setText(text);
    // Keep the connection the user looked at; otherwise show the first one with trouble.
    int pick = analysis_->rowOfConnection(keep) >= 0 ? keep : -1;
    if (pick < 0 && !analysis_->report.anomalies.empty())
      pick = analysis_->report.anomalies.front().connection;
    if (pick < 0 && !analysis_->report.connections.empty())
      pick = analysis_->report.connections.front().id;
    if (pick >= 0) pickConnection(pick, false);
    flow_->setCurrentFrame(currentFrame_);
  }
  Q_EMIT analysisChanged();
}

void AnalysisController::selectConnection(int id) {
  pickConnection(id, true);
}

void AnalysisController::pickConnection(int id, bool fromUser) {
  if (!analysis_) return;
  const int row = analysis_->rowOfConnection(id);
  if (row < 0) return;
  selected_ = id;
  flow_->setConnection(id);
  plot_->setConnection(id);
  syncing_ = true;
  for (QComboBox* chooser : {flowChooser_, plotChooser_}) {
    const QSignalBlocker block(chooser);
    chooser->setCurrentIndex(chooser->findData(id));
  }
  const QModelIndex src = conversations_->index(row, 0);
  const QModelIndex idx = conversationProxy_->mapFromSource(src);
  if (conversationsView_->currentIndex().row() != idx.row()) {
    conversationsView_->setCurrentIndex(idx);
    conversationsView_->scrollTo(idx);
  }
  syncing_ = false;
  if (fromUser)
    Q_EMIT connectionChosen(id, QString::fromStdString(connectionFilter(
                                    analysis_->report.connections[static_cast<std::size_t>(row)])));
}

void AnalysisController::setCurrentFrame(qint64 frame) {
  currentFrame_ = frame;
  flow_->setCurrentFrame(frame);
}

}  // namespace rdmascope::ui
