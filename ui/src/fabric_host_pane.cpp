#include "rdmascope/ui/fabric_host_pane.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "host_tables.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/fabric_session.h"

namespace rdmascope::ui {

using host_tables::makeTable;

FabricHostPane::FabricHostPane(int host, QWidget* parent) : QWidget(parent), host_(host) {
  setObjectName(QStringLiteral("fabricHost%1").arg(host));
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("hostTitle"));
  title_->setTextFormat(Qt::RichText);
  step_ = new QPushButton(tr("Step call"), this);
  step_->setObjectName(QStringLiteral("stepCall"));
  step_->setToolTip(tr("Let this program make one verbs call (while the fabric is paused)"));
  step_->setEnabled(false);
  connect(step_, &QPushButton::clicked, this, [this] { Q_EMIT stepCallRequested(host_); });
  auto* header = new QWidget(this);
  header->setObjectName(QStringLiteral("hostHeader"));
  auto* hl = new QHBoxLayout(header);
  hl->setContentsMargins(4, 2, 4, 2);
  hl->addWidget(title_, 1);
  hl->addWidget(step_);

  qps_ = new FabricHostModel(FabricTable::Qps, this);
  sq_ = new FabricHostModel(FabricTable::SendQueue, this);
  rq_ = new FabricHostModel(FabricTable::RecvQueue, this);
  mrs_ = new FabricHostModel(FabricTable::Mrs, this);
  cqs_ = new FabricHostModel(FabricTable::Cqs, this);
  pds_ = new FabricHostModel(FabricTable::Pds, this);

  qpTable_ = makeTable(qps_, this, QStringLiteral("qpTable"));
  qpTable_->setSelectionMode(QAbstractItemView::SingleSelection);
  qpTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  qpTable_->setFocusPolicy(Qt::StrongFocus);
  qpTable_->setToolTip(tr("Select a QP to see its send and receive queues"));
  const int cw = qpTable_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  for (int c = 0; c < 7; ++c)
    qpTable_->setColumnWidth(c, cw * (c == 1 ? 5 : 8));
  connect(qpTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid())
              selectQp(qps_->data(qps_->index(current.row(), 0)).toString().toUInt(nullptr, 16));
          });

  auto* sq = makeTable(sq_, this, QStringLiteral("sqTable"));
  sq->setColumnWidth(0, cw * 6);
  sq->setColumnWidth(1, cw * 11);
  sq->setColumnWidth(2, cw * 6);
  sq->setColumnWidth(3, cw * 9);
  auto* rq = makeTable(rq_, this, QStringLiteral("rqTable"));
  rq->setColumnWidth(0, cw * 6);
  rq->setColumnWidth(1, cw * 6);
  auto* queues = new QWidget(this);
  auto* ql = new QVBoxLayout(queues);
  ql->setContentsMargins(0, 0, 0, 0);
  ql->setSpacing(1);
  queueLabel_ = new QLabel(queues);
  ql->addWidget(queueLabel_);
  auto* split = new QSplitter(Qt::Horizontal, queues);
  split->addWidget(sq);
  split->addWidget(rq);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  ql->addWidget(split, 1);

  auto* mr = makeTable(mrs_, this, QStringLiteral("mrTable"));
  mr->setColumnWidth(0, cw * 4);
  mr->setColumnWidth(1, cw * 9);
  mr->setColumnWidth(2, cw * 9);
  mr->setColumnWidth(3, cw * 30);
  mr->setColumnWidth(4, cw * 15);
  auto* cq = makeTable(cqs_, this, QStringLiteral("cqTable"));
  auto* pd = makeTable(pds_, this, QStringLiteral("pdTable"));

  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("hostTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(queues, tr("SQ / RQ"));
  tabs_->addTab(mr, tr("MRs"));
  tabs_->addTab(cq, tr("CQs"));
  tabs_->addTab(pd, tr("PDs"));

  auto* body = new QSplitter(Qt::Vertical, this);
  body->addWidget(qpTable_);
  body->addWidget(tabs_);
  body->setStretchFactor(0, 1);
  body->setStretchFactor(1, 4);
  // Most programs have a QP or two: their queues get the room.
  body->setSizes({qpTable_->verticalHeader()->defaultSectionSize() * 4, 1000});
  body->setChildrenCollapsible(false);

  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(2);
  l->addWidget(header);
  l->addWidget(body, 1);
  selectQp(0);
}

void FabricHostPane::setHost(const FabricHostView& view) {
  attached_ = view.attached;
  const QString who = view.program.empty()
                          ? tr("no program")
                          : QStringLiteral("%1 (pid %2)")
                                .arg(QString::fromStdString(view.program).toHtmlEscaped())
                                .arg(view.pid);
  title_->setText(
      view.attached
          ? QStringLiteral("<b>%1</b> &nbsp;%2").arg(QString::fromStdString(view.name), who)
          : tr("<b>%1</b> &nbsp;%2 &nbsp;<i>detached</i>")
                .arg(QString::fromStdString(view.name), who));
  title_->parentWidget()->setStyleSheet(
      view.attached
          ? QStringLiteral("#hostHeader { background: #dfe8f5; }")
          : QStringLiteral("#hostHeader { background: #e4e4e4; } QLabel { color: #808080; }"));
  const simdev::HostState* state = view.hasState ? &view.state : nullptr;
  for (FabricHostModel* m : {qps_, sq_, rq_, mrs_, cqs_, pds_})
    m->setState(state, !view.attached);
  // Keep the selected QP when it still exists, else the first.
  int row = -1;
  for (int r = 0; r < qps_->rowCount(); ++r)
    if (qps_->data(qps_->index(r, 0)).toString().toUInt(nullptr, 16) == sq_->qp()) row = r;
  if (row < 0 && qps_->rowCount() > 0) row = 0;
  if (row >= 0) {
    const QSignalBlocker block(qpTable_->selectionModel());
    qpTable_->selectionModel()->setCurrentIndex(
        qps_->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selectQp(qps_->data(qps_->index(row, 0)).toString().toUInt(nullptr, 16));
  } else {
    selectQp(0);
  }
  step_->setEnabled(stepEnabled_ && attached_);
}

void FabricHostPane::setStepEnabled(bool on) {
  stepEnabled_ = on;
  step_->setEnabled(stepEnabled_ && attached_);
}

void FabricHostPane::selectQp(std::uint32_t qpn) {
  sq_->setQp(qpn);
  rq_->setQp(qpn);
  queueLabel_->setText(qpn ? tr("Send queue | receive queue of QP 0x%1").arg(qpn, 0, 16)
                           : tr("Send queue | receive queue (no QP)"));
}

}  // namespace rdmascope::ui
