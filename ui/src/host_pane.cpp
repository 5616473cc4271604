#include "rdmascope/ui/host_pane.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "host_tables.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/qp_state_diagram.h"

namespace rdmascope::ui {

using host_tables::makeTable;

namespace {

QWidget* titled(const QString& title, QWidget* body, QWidget* parent) {
  auto* w = new QWidget(parent);
  auto* l = new QVBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(1);
  auto* label = new QLabel(title, w);
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  l->addWidget(label);
  l->addWidget(body, 1);
  return w;
}

}  // namespace

HostPane::HostPane(const QString& title, QWidget* parent) : QWidget(parent) {
  title_ = new QLabel(title, this);
  QFont tf = title_->font();
  tf.setBold(true);
  tf.setPointSizeF(tf.pointSizeF() * 1.2);
  title_->setFont(tf);
  title_->setStyleSheet(QStringLiteral("QLabel { background: #dfe8f5; padding: 3px; }"));

  qpModel_ = new HostTableModel(HostTable::Qps, this);
  sqModel_ = new HostTableModel(HostTable::SendQueue, this);
  rqModel_ = new HostTableModel(HostTable::RecvQueue, this);
  cqModel_ = new HostTableModel(HostTable::Completions, this);
  mrModel_ = new HostTableModel(HostTable::Mrs, this);
  diagram_ = new QpStateDiagram(this);
  memory_ = new HexView(this);
  memory_->setObjectName(QStringLiteral("memoryView"));

  auto* qpTable = makeTable(qpModel_, this, QStringLiteral("qpTable"));
  qpTable->setMaximumHeight(qpTable->fontMetrics().height() * 3 + 8);
  qpTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  const int cw = qpTable->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  for (int c = 0; c < 6; ++c)
    qpTable->setColumnWidth(c, cw * (c == 2 ? 7 : 9));

  auto* sq = makeTable(sqModel_, this, QStringLiteral("sqTable"));
  sq->setColumnWidth(0, cw * 5);
  sq->setColumnWidth(1, cw * 10);
  sq->setColumnWidth(2, cw * 5);
  sq->setColumnWidth(3, cw * 9);
  auto* rq = makeTable(rqModel_, this, QStringLiteral("rqTable"));
  rq->setColumnWidth(0, cw * 5);
  rq->setColumnWidth(1, cw * 5);
  auto* cq = makeTable(cqModel_, this, QStringLiteral("cqTable"));
  cq->setColumnWidth(0, cw * 6);
  cq->setColumnWidth(1, cw * 11);
  cq->setColumnWidth(2, cw * 9);
  cq->setColumnWidth(3, cw * 6);

  mrTable_ = makeTable(mrModel_, this, QStringLiteral("mrTable"));
  mrTable_->setColumnWidth(0, cw * 7);
  mrTable_->setColumnWidth(1, cw * 15);
  mrTable_->setColumnWidth(2, cw * 7);
  mrTable_->setColumnWidth(3, cw * 8);
  mrTable_->setColumnWidth(4, cw * 8);
  // A header and two MRs; more scroll.
  mrTable_->setMaximumHeight(mrTable_->fontMetrics().height() * 4 + 8);
  mrTable_->setMinimumHeight(mrTable_->fontMetrics().height() * 2 + 8);

  auto* queues = new QSplitter(Qt::Horizontal, this);
  queues->addWidget(titled(tr("Send queue"), sq, queues));
  queues->addWidget(titled(tr("Receive queue"), rq, queues));
  queues->setSizes({330, 220});

  memoryLabel_ = new QLabel(tr("Registered memory"), this);
  QFont mf = memoryLabel_->font();
  mf.setBold(true);
  memoryLabel_->setFont(mf);
  // "...: the NIC just wrote N bytes at +0x..." would otherwise set the pane's minimum width.
  memoryLabel_->setWordWrap(true);
  auto* memBox = new QWidget(this);
  auto* ml = new QVBoxLayout(memBox);
  ml->setContentsMargins(0, 0, 0, 0);
  ml->setSpacing(1);
  ml->addWidget(memoryLabel_);
  ml->addWidget(mrTable_);
  ml->addWidget(memory_, 1);

  auto* split = new QSplitter(Qt::Vertical, this);
  qpBox_ = titled(tr("Queue pair"), qpTable, this);
  cqBox_ = titled(tr("Completion queue"), cq, split);
  queuesBox_ = queues;
  memBox_ = memBox;
  split->addWidget(diagram_);
  split->addWidget(queues);
  split->addWidget(cqBox_);
  split->addWidget(memBox);
  split->setChildrenCollapsible(false);
  split->setSizes({140, 110, 100, 180});
  // Below the five sections' minimum height (a laptop screen) the pane scrolls instead of
  // setting the window's minimum size.
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("hostScroll"));
  scroll->setWidget(split);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  layout->addWidget(title_);
  // The QP (its state and PSNs) stays in view above the sections that scroll.
  layout->addWidget(qpBox_);
  layout->addWidget(scroll, 1);
}

void HostPane::setTitle(const QString& title) {
  title_->setText(title);
}

void HostPane::setSnapshot(const HostSnapshot* s, const HostSnapshot* previous) {
  qpModel_->setSnapshot(s, previous);
  sqModel_->setSnapshot(s, previous);
  rqModel_->setSnapshot(s, previous);
  cqModel_->setSnapshot(s, previous);
  mrModel_->setSnapshot(s, previous);
  if (!s) {
    memory_->setBytes({});
    diagram_->clearState();
    bufferAddr_ = 0;
    return;
  }
  const QByteArray bytes = s->buffer ? QByteArray(reinterpret_cast<const char*>(s->buffer->data()),
                                                  static_cast<qsizetype>(s->buffer->size()))
                                     : QByteArray();
  if (bytes != memory_->bytes() || s->bufferAddr != bufferAddr_) {
    const std::uint32_t ho = memory_->highlightOffset(), hl = memory_->highlightLength();
    memory_->setBytes(bytes, 0);
    memory_->setHighlight(ho, hl);
  }
  bufferAddr_ = s->bufferAddr;
  if (s->qps.empty()) diagram_->clearState();
}

void HostPane::showMr(int mr) {
  mrModel_->setHighlightedMr(mr);
  if (mr >= 0 && mr < mrModel_->rowCount()) {
    mrTable_->scrollTo(mrModel_->index(mr, 0));
    // The pane scrolls when the window is small: bring the table itself into view too.
    if (auto* scroll = findChild<QScrollArea*>(QStringLiteral("hostScroll")))
      scroll->ensureWidgetVisible(mrTable_);
  }
}

QWidget* HostPane::section(Section s) const {
  switch (s) {
    case Section::Qp:
      return qpBox_;
    case Section::StateDiagram:
      return diagram_;
    case Section::Queues:
      return queuesBox_;
    case Section::Completions:
      return cqBox_;
    case Section::Memory:
      return memBox_;
  }
  return qpBox_;
}

void HostPane::bringIntoView(Section s) {
  auto* scroll = findChild<QScrollArea*>(QStringLiteral("hostScroll"));
  QWidget* w = section(s);
  if (!scroll || !w || !scroll->widget() || !scroll->widget()->isAncestorOf(w)) return;
  // The whole section when it fits, else its top (a table's first rows).
  const int top = w->mapTo(scroll->widget(), QPoint(0, 0)).y();
  const int view = scroll->viewport()->height();
  auto* bar = scroll->verticalScrollBar();
  if (top >= bar->value() && top + w->height() <= bar->value() + view) return;
  bar->setValue(w->height() <= view ? top + w->height() - view : top);
}

std::optional<HostPane::Section> HostPane::sectionOf(const sim::TraceEvent& e) {
  using sim::TraceKind;
  switch (e.kind) {
    case TraceKind::QpState:
      return Section::StateDiagram;
    case TraceKind::WqePosted:
    case TraceKind::WqeStarted:
    case TraceKind::WqePacket:
    case TraceKind::WqeCompleted:
      return Section::Queues;
    case TraceKind::CqeProduced:
      return Section::Completions;
    case TraceKind::MemoryRead:
    case TraceKind::MemoryWritten:
      return Section::Memory;
    case TraceKind::Note: {
      // The scenario's verbs calls (notes "host-a: ibv_poll_cq(cq) ...", "-> wr_id ...").
      const auto& t = e.args.text;
      if (t.find("poll_cq") != std::string::npos || t.find("-> wr_id") != std::string::npos)
        return Section::Completions;
      if (t.find("reg_mr") != std::string::npos) return Section::Memory;
      if (t.find("post_send") != std::string::npos || t.find("post_recv") != std::string::npos)
        return Section::Queues;
      if (t.find("modify_qp") != std::string::npos || t.find("create_qp") != std::string::npos)
        return Section::StateDiagram;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

void HostPane::setQpState(sim::QpState current, sim::QpState from, bool lit) {
  diagram_->setState(current, from, lit);
}

void HostPane::setMemoryAccess(std::uint32_t offset, std::uint32_t length, bool write, bool now) {
  memory_->setHighlight(offset, length);
  if (bufferAddr_ == 0) {
    memoryLabel_->setText(tr("Registered memory (none registered yet)"));
    return;
  }
  const QString mr = tr("Registered memory at 0x%1").arg(bufferAddr_, 0, 16);
  if (length == 0) {
    memoryLabel_->setText(mr);
    return;
  }
  const QString text = now ? (write ? tr("%1: the NIC just wrote %2 bytes at +0x%3 (DMA)")
                                    : tr("%1: the NIC just read %2 bytes at +0x%3 (DMA)"))
                           : (write ? tr("%1: earlier in this step the NIC wrote %2 bytes at "
                                         "+0x%3 (DMA)")
                                    : tr("%1: earlier in this step the NIC read %2 bytes at "
                                         "+0x%3 (DMA)"));
  memoryLabel_->setText(text.arg(mr).arg(length).arg(offset, 0, 16));
}

}  // namespace rdmascope::ui
