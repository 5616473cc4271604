#include "rdmascope/ui/fabric_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/fabric_host_pane.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/fabric_session.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

QString wireName(sim::WireFormat wire) {
  switch (wire) {
    case sim::WireFormat::RoceV2Ipv4:
      return QStringLiteral("RoCEv2 (IPv4)");
    case sim::WireFormat::RoceV2Ipv6:
      return QStringLiteral("RoCEv2 (IPv6)");
    case sim::WireFormat::RoceV1:
      return QStringLiteral("RoCEv1");
    case sim::WireFormat::InfiniBand:
      return QStringLiteral("InfiniBand");
  }
  return {};
}

}  // namespace

FabricView::FabricView(FabricSession* session, const FrameStore* store, QWidget* parent)
    : QWidget(parent), session_(session), store_(store) {
  setObjectName(QStringLiteral("fabricView"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("fabricStatus"));
  status_->setTextFormat(Qt::RichText);
  held_ = new QLabel(this);
  held_->setObjectName(QStringLiteral("heldLabel"));
  pause_ = new QPushButton(tr("Pause"), this);
  pause_->setObjectName(QStringLiteral("pauseFabric"));
  pause_->setToolTip(
      tr("Hold frames at the switch; every program stops inside its next verbs call"));
  stepFrame_ = new QPushButton(tr("Step frame"), this);
  stepFrame_->setObjectName(QStringLiteral("stepFrame"));
  stepFrame_->setToolTip(tr("Let the oldest held frame through the switch"));
  connect(pause_, &QPushButton::clicked, this, [this] {
    if (session_->paused())
      session_->resume();
    else
      session_->pause();
  });
  connect(stepFrame_, &QPushButton::clicked, session_, &FabricSession::stepFrame);
  auto* bar = new QWidget(this);
  auto* bl = new QHBoxLayout(bar);
  bl->setContentsMargins(4, 2, 4, 2);
  bl->addWidget(status_, 1);
  bl->addWidget(held_);
  bl->addWidget(pause_);
  bl->addWidget(stepFrame_);

  hostSplit_ = new QSplitter(Qt::Horizontal, this);
  hostSplit_->setObjectName(QStringLiteral("fabricHosts"));
  hostSplit_->setChildrenCollapsible(false);
  placeholder_ = new QLabel(hostSplit_);
  placeholder_->setObjectName(QStringLiteral("fabricPlaceholder"));
  placeholder_->setWordWrap(true);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setTextFormat(Qt::RichText);
  hostSplit_->addWidget(placeholder_);

  ladder_ = new LadderView(this);
  ladder_->setObjectName(QStringLiteral("fabricLadder"));
  connect(ladder_, &LadderView::frameClicked, this,
          [this](int frame) { Q_EMIT frameActivated(frame); });
  timelineModel_ = new FabricTimelineModel(session_, store_, this);
  timeline_ = new QTableView(this);
  timeline_->setObjectName(QStringLiteral("fabricTimeline"));
  timeline_->setModel(timelineModel_);
  timeline_->verticalHeader()->hide();
  timeline_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  timeline_->verticalHeader()->setDefaultSectionSize(timeline_->fontMetrics().height() + 4);
  timeline_->horizontalHeader()->setStretchLastSection(true);
  timeline_->setSelectionBehavior(QAbstractItemView::SelectRows);
  timeline_->setSelectionMode(QAbstractItemView::SingleSelection);
  timeline_->setShowGrid(false);
  timeline_->setWordWrap(false);
  const int cw = timeline_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  timeline_->setColumnWidth(FabricTimelineModel::Time, cw * 13);
  timeline_->setColumnWidth(FabricTimelineModel::Host, cw * 7);
  timeline_->setColumnWidth(FabricTimelineModel::Kind, cw * 13);
  const auto pick = [this](const QModelIndex& idx) {
    const qlonglong frame = timelineModel_->data(idx, FabricTimelineModel::FrameRole).toLongLong();
    if (frame >= 0) Q_EMIT frameActivated(frame);
  };
  connect(timeline_, &QTableView::clicked, this, pick);
  connect(timeline_, &QTableView::activated, this, pick);
  // Follow the newest row while the view is at the bottom, as a terminal does.
  connect(timelineModel_, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] {
    QScrollBar* s = timeline_->verticalScrollBar();
    timeline_->setProperty("follow", s->value() >= s->maximum() - 2);
  });
  connect(timelineModel_, &QAbstractItemModel::rowsInserted, this, [this] {
    if (timeline_->property("follow").toBool()) timeline_->scrollToBottom();
  });

  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(ladder_);
  right->addWidget(timeline_);
  right->setSizes({300, 240});
  right->setChildrenCollapsible(false);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(hostSplit_);
  split->addWidget(right);
  split->setSizes({900, 700});
  split->setChildrenCollapsible(false);

  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(0);
  l->addWidget(bar);
  l->addWidget(split, 1);

  connect(session_, &FabricSession::storeReset, this, &FabricView::reset);
  connect(session_, &FabricSession::hostChanged, this, &FabricView::hostChanged);
  connect(session_, &FabricSession::framesAppended, this, &FabricView::framesAppended);
  connect(session_, &FabricSession::holdChanged, this, &FabricView::holdChanged);
  connect(session_, &FabricSession::closed, this, [this] { updateStatus(); });
  reset();
}

FabricHostPane* FabricView::hostPane(int host) const {
  const auto it = panes_.find(host);
  return it == panes_.end() ? nullptr : it->second;
}

void FabricView::reset() {
  for (auto& [host, pane] : panes_)
    delete pane;
  panes_.clear();
  placeholder_->setText(
      tr("<p><b>No program attached yet.</b></p><p>Run a verbs program on a host of the fabric, "
         "as on a machine with an RDMA NIC:</p><p><tt>rdmascope-cli exec --host 1 -- "
         "ibv_rc_pingpong -d rdmascope0 -g 1</tt><br><tt>rdmascope-cli exec --host 2 -- "
         "ibv_rc_pingpong -d rdmascope0 -g 1 localhost</tt></p>"));
  placeholder_->show();
  ladderFrames_.clear();
  relayLadder();
  holdChanged();
}

void FabricView::hostChanged(int host) {
  const auto& hosts = session_->hosts();
  if (host < 1 || static_cast<std::size_t>(host) > hosts.size()) return;
  const FabricHostView& view = hosts[static_cast<std::size_t>(host - 1)];
  FabricHostPane* pane = hostPane(host);
  if (!pane) {
    if (view.program.empty()) return;
    pane = new FabricHostPane(host, hostSplit_);
    connect(pane, &FabricHostPane::stepCallRequested, session_, &FabricSession::stepCall);
    const auto at = panes_.lower_bound(host);
    const int index = static_cast<int>(std::distance(panes_.begin(), at));
    panes_[host] = pane;
    hostSplit_->insertWidget(index, pane);
    placeholder_->hide();
    QList<int> sizes;
    for (std::size_t i = 0; i < panes_.size(); ++i)
      sizes << 1000;
    hostSplit_->setSizes(sizes);
    relayLadder();
  }
  pane->setHost(view);
  pane->setStepEnabled(session_->paused());
  updateStatus();
}

LadderFrame FabricView::ladderFrame(std::size_t frame) const {
  const auto s = sim::summarizeFrame(session_->info().wire, store_->bytes(frame));
  LadderFrame f;
  const auto lane = [this](int host) {
    const auto it = std::find(lanes_.begin(), lanes_.end(), host);
    return it == lanes_.end() ? 0 : static_cast<int>(std::distance(lanes_.begin(), it));
  };
  f.fromHost = lane(session_->frameSource(frame));
  f.toHost = lane(session_->frameDestination(frame));
  if (f.toHost == f.fromHost) f.toHost = -1;
  std::string name = s.ok || !s.opcodeName.empty() ? s.opcodeName : std::string("not RoCE");
  if (name.rfind("RC ", 0) == 0) name = name.substr(3);
  f.label = QStringLiteral("%1  PSN %2").arg(QString::fromStdString(name)).arg(s.psn);
  if (s.hasAeth && (s.syndrome & 0x60) != 0) {
    f.nak = true;
    f.label += (s.syndrome & 0x60) == 0x20 ? QStringLiteral("  RNR NAK") : QStringLiteral("  NAK");
  }
  const bool held = session_->frameHeld(frame);
  if (held) f.label += tr("  (held)");
  f.held = held;
  f.detail = describeFabricFrame(*session_, *store_, frame);
  f.sentUs = static_cast<double>(store_->record(frame).timestampNs) / 1000.0;
  return f;
}

void FabricView::nameLanes() {
  // The host names only: a program's name would not fit over a lifeline (its pane shows it).
  QStringList names;
  for (int h : lanes_)
    names << QStringLiteral("host%1").arg(h);
  ladder_->setHostNames(names);
}

void FabricView::relayLadder() {
  // A lifeline per host with a program, and per host a frame came from or went to; at least two.
  std::vector<int> lanes;
  for (const auto& [host, pane] : panes_)
    lanes.push_back(host);
  for (std::size_t i = 0; i < store_->size(); ++i)
    for (int h : {session_->frameSource(i), session_->frameDestination(i)})
      if (h > 0 && std::find(lanes.begin(), lanes.end(), h) == lanes.end()) lanes.push_back(h);
  for (const auto& h : session_->hosts())
    if (lanes.size() < 2 && std::find(lanes.begin(), lanes.end(), h.number) == lanes.end())
      lanes.push_back(h.number);
  for (int h = 1; lanes.size() < 2; ++h)
    if (std::find(lanes.begin(), lanes.end(), h) == lanes.end()) lanes.push_back(h);
  std::sort(lanes.begin(), lanes.end());
  lanes_ = lanes;
  nameLanes();
  const int current = ladder_->currentFrame();
  ladderFrames_.clear();
  for (std::size_t i = 0; i < store_->size(); ++i)
    ladderFrames_.push_back(ladderFrame(i));
  ladder_->setFrames(ladderFrames_);
  ladder_->setVisibleCount(static_cast<int>(ladderFrames_.size()));
  if (current >= 0 && current < static_cast<int>(ladderFrames_.size()))
    ladder_->setCurrentFrame(current);
}

void FabricView::framesAppended() {
  bool newLane = false;
  for (std::size_t i = ladderFrames_.size(); i < store_->size(); ++i)
    for (int h : {session_->frameSource(i), session_->frameDestination(i)})
      if (h > 0 && std::find(lanes_.begin(), lanes_.end(), h) == lanes_.end()) newLane = true;
  if (newLane) {
    relayLadder();
    return;
  }
  std::vector<LadderFrame> added;
  for (std::size_t i = ladderFrames_.size(); i < store_->size(); ++i)
    added.push_back(ladderFrame(i));
  ladderFrames_.insert(ladderFrames_.end(), added.begin(), added.end());
  ladder_->appendFrames(added);
  updateStatus();
}

void FabricView::holdChanged() {
  const bool paused = session_->paused();
  pause_->setText(paused ? tr("Resume") : tr("Pause"));
  stepFrame_->setEnabled(paused && session_->heldCount() > 0);
  for (auto& [host, pane] : panes_)
    pane->setStepEnabled(paused);
  const auto waiting = session_->heldCount();
  held_->setText(!paused        ? QString()
                 : waiting == 1 ? tr("1 frame held at the switch")
                                : tr("%1 frames held at the switch").arg(waiting));
  // Frames held, or let through since: relabel them.
  bool relabel = false;
  for (std::size_t i = 0; i < ladderFrames_.size(); ++i) {
    const bool held = session_->frameHeld(i);
    if (held != ladderFrames_[i].held) {
      ladderFrames_[i] = ladderFrame(i);
      relabel = true;
    }
  }
  if (relabel) {
    const int current = ladder_->currentFrame();
    ladder_->setFrames(ladderFrames_);
    ladder_->setVisibleCount(static_cast<int>(ladderFrames_.size()));
    if (current >= 0) ladder_->setCurrentFrame(current);
  }
  updateStatus();
}

void FabricView::updateStatus() {
  const auto& info = session_->info();
  int attached = 0;
  for (const auto& h : session_->hosts())
    attached += h.attached ? 1 : 0;
  QString state = !session_->attached() ? tr("<span style='color:#c0392b'>disconnected</span>")
                  : session_->paused()  ? tr("<span style='color:#d35400'><b>paused</b></span>")
                                        : tr("<span style='color:#1e8449'>running</span>");
  status_->setText(tr("<b>Fabric</b> %1 &nbsp;·&nbsp; %2 of %3 hosts attached &nbsp;·&nbsp; %4, "
                      "MTU %5 &nbsp;·&nbsp; %6 frames &nbsp;·&nbsp; %7")
                       .arg(session_->socketPath().toHtmlEscaped())
                       .arg(attached)
                       .arg(info.hosts.size())
                       .arg(wireName(info.wire))
                       .arg(info.linkMtu)
                       .arg(store_->size())
                       .arg(state));
}

void FabricView::setCurrentFrame(qint64 frame) {
  ladder_->setCurrentFrame(static_cast<int>(frame));
  if (frame < 0) return;
  const int row = timelineModel_->rowOfFrame(static_cast<std::size_t>(frame));
  if (row < 0) return;
  const QSignalBlocker block(timeline_);
  timeline_->selectRow(row);
  timeline_->scrollTo(timelineModel_->index(row, 0));
}

}  // namespace rdmascope::ui
