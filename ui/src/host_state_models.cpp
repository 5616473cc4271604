#include "rdmascope/ui/host_state_models.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "host_tables.h"
#include "rdmascope/sim/narration.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/psn_base.h"

namespace rdmascope::ui {

using host_tables::hex;
using host_tables::kGreen;
using host_tables::kRed;
using host_tables::kYellow;
using host_tables::toQString;

HostTableModel::HostTableModel(HostTable table, QObject* parent)
    : QAbstractTableModel(parent), table_(table) {
  if (table_ == HostTable::Qps || table_ == HostTable::SendQueue) {
    connect(&PsnBase::instance(), &PsnBase::changed, this, [this] {
      if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    });
  }
}

const std::vector<sim::WqeView>* HostTableModel::queue(const HostSnapshot* s) const {
  if (!s || s->qps.empty()) return nullptr;
  return table_ == HostTable::SendQueue ? &s->qps.front().sq : &s->qps.front().rq;
}

void HostTableModel::setSnapshot(const HostSnapshot* snapshot, const HostSnapshot* previous) {
  beginResetModel();
  snapshot_ = snapshot;
  previous_ = previous;
  endResetModel();
}

int HostTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !snapshot_) return 0;
  switch (table_) {
    case HostTable::Qps:
      return static_cast<int>(snapshot_->qps.size());
    case HostTable::SendQueue:
    case HostTable::RecvQueue: {
      const auto* q = queue(snapshot_);
      return q ? static_cast<int>(q->size()) : 0;
    }
    case HostTable::Completions:
      return snapshot_->cqs.empty() ? 0 : static_cast<int>(snapshot_->cqs.front().entries.size());
    case HostTable::Mrs:
      return static_cast<int>(snapshot_->mrs.size());
  }
  return 0;
}

int HostTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  switch (table_) {
    case HostTable::Qps:
      return 7;
    case HostTable::SendQueue:
      return 5;
    case HostTable::RecvQueue:
      return 3;
    case HostTable::Completions:
      return 5;
    case HostTable::Mrs:
      return 6;
  }
  return 0;
}

QVariant HostTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* qp[] = {QT_TR_NOOP("QPN"),    QT_TR_NOOP("Type"),   QT_TR_NOOP("State"),
                             QT_TR_NOOP("SQ PSN"), QT_TR_NOOP("RQ PSN"), QT_TR_NOOP("Acked PSN"),
                             QT_TR_NOOP("MSN")};
  static const char* cq[] = {QT_TR_NOOP("wr_id"), QT_TR_NOOP("Opcode"), QT_TR_NOOP("Status"),
                             QT_TR_NOOP("Bytes"), QT_TR_NOOP("Polled")};
  static const char* mr[] = {QT_TR_NOOP("MR"),   QT_TR_NOOP("Address"), QT_TR_NOOP("Length"),
                             QT_TR_NOOP("lkey"), QT_TR_NOOP("rkey"),    QT_TR_NOOP("Access")};
  if (section < 0 || section >= columnCount()) return {};
  const auto i = static_cast<std::size_t>(section);
  switch (table_) {
    case HostTable::Qps:
      return tr(qp[i]);
    case HostTable::SendQueue:
    case HostTable::RecvQueue:
      return host_tables::wqeHeader(table_ == HostTable::RecvQueue, section);
    case HostTable::Completions:
      return tr(cq[i]);
    case HostTable::Mrs:
      return tr(mr[i]);
  }
  return {};
}

bool HostTableModel::rowChanged(int row) const {
  if (!previous_) return false;
  const auto r = static_cast<std::size_t>(row);
  switch (table_) {
    case HostTable::Qps: {
      if (r >= previous_->qps.size()) return true;
      const auto& a = snapshot_->qps[r];
      const auto& b = previous_->qps[r];
      return a.state != b.state || a.sqPsn != b.sqPsn || a.rqPsn != b.rqPsn ||
             a.compPsn != b.compPsn || a.msn != b.msn;
    }
    case HostTable::SendQueue:
    case HostTable::RecvQueue: {
      const auto* q = queue(previous_);
      if (!q || r >= q->size()) return true;
      return (*q)[r].state != (*queue(snapshot_))[r].state;
    }
    case HostTable::Completions:
      if (previous_->cqs.empty() || r >= previous_->cqs.front().entries.size()) return true;
      return (r < snapshot_->cqs.front().polled) != (r < previous_->cqs.front().polled);
    case HostTable::Mrs:
      return r >= previous_->mrs.size();
  }
  return false;
}

QVariant HostTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto r = static_cast<std::size_t>(index.row());
  const int c = index.column();
  if (role == Qt::FontRole && rowChanged(index.row())) {
    QFont f;
    f.setBold(true);
    return f;
  }
  switch (table_) {
    case HostTable::Qps: {
      const auto& q = snapshot_->qps[r];
      if (role == Qt::BackgroundRole && c == 2) return host_tables::qpStateBrush(q.state);
      if (role != Qt::DisplayRole) return {};
      switch (c) {
        case 0:
          return hex(q.qpn);
        case 1:
          return toQString(sim::toString(q.type));
        case 2:
          return toQString(qpStateName(q.state));
        case 3:
          return PsnBase::format(q.sqPsn);
        case 4:
          return PsnBase::format(q.rqPsn);
        case 5:
          return PsnBase::format(q.compPsn);
        case 6:
          return q.msn;
      }
      return {};
    }
    case HostTable::SendQueue:
    case HostTable::RecvQueue: {
      const auto& w = (*queue(snapshot_))[r];
      if (role == Qt::BackgroundRole) return host_tables::wqeBrush(w.state);
      if (role != Qt::DisplayRole) return {};
      return host_tables::wqeCell(w, table_ == HostTable::RecvQueue, c);
    }
    case HostTable::Completions: {
      const CqSnapshot& cq = snapshot_->cqs.front();
      const auto& wc = cq.entries[r];
      const bool polled = r < cq.polled;
      if (role == Qt::BackgroundRole) {
        if (wc.status != sim::WcStatus::Success) return QBrush(kRed);
        return polled ? QVariant() : QVariant(QBrush(kGreen));
      }
      if (role == Qt::ForegroundRole && polled) return QBrush(QColor(0x80, 0x80, 0x80));
      if (role != Qt::DisplayRole) return {};
      switch (c) {
        case 0:
          return QVariant::fromValue<qulonglong>(wc.wrId);
        case 1:
          return toQString(sim::toString(wc.opcode));
        case 2:
          return toQString(sim::toString(wc.status));
        case 3:
          return wc.byteLen;
        case 4:
          return polled ? tr("yes") : tr("no");
      }
      return {};
    }
    case HostTable::Mrs: {
      const MrSnapshot& m = snapshot_->mrs[r];
      const QString access = accessFlagNames(m.access);
      if (role == Qt::ToolTipRole)
        return tr("MR #%1 %2: %3 bytes at 0x%4\nlkey 0x%5: this host's work requests quote it "
                  "in their SGEs\nrkey 0x%6: the peer quotes it in a RETH to READ or WRITE "
                  "here\nAccess: %7")
            .arg(r + 1)
            .arg(QString::fromStdString(m.name))
            .arg(m.length)
            .arg(m.addr, 0, 16)
            .arg(m.lkey, 0, 16)
            .arg(m.rkey, 0, 16)
            .arg(ibvAccessNames(m.access));
      if (role == Qt::BackgroundRole && static_cast<int>(r) == highlightedMr_)
        return QBrush(kYellow);
      if (role != Qt::DisplayRole) return {};
      switch (c) {
        case 0:
          return QStringLiteral("#%1 %2").arg(r + 1).arg(QString::fromStdString(m.name));
        case 1:
          return hex(m.addr);
        case 2:
          return QVariant::fromValue<qulonglong>(m.length);
        case 3:
          return hex(m.lkey);
        case 4:
          return hex(m.rkey);
        case 5:
          return access;
      }
      return {};
    }
  }
  return {};
}

void HostTableModel::setHighlightedMr(int mr) {
  if (table_ != HostTable::Mrs || mr == highlightedMr_) return;
  highlightedMr_ = mr;
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

EventListModel::EventListModel(QObject* parent) : QAbstractTableModel(parent) {}

void EventListModel::setRecording(const ScenarioRecording* recording) {
  beginResetModel();
  rec_ = recording;
  current_ = -1;
  endResetModel();
}

void EventListModel::setCurrent(int event) {
  const int old = current_;
  current_ = event;
  if (old >= 0 && old < rowCount()) Q_EMIT dataChanged(index(old, 0), index(old, ColumnCount - 1));
  if (event >= 0 && event < rowCount())
    Q_EMIT dataChanged(index(event, 0), index(event, ColumnCount - 1));
}

int EventListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !rec_ ? 0 : static_cast<int>(rec_->events.size());
}

int EventListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Index:
      return tr("#");
    case Time:
      return tr("Time (us)");
    case Host:
      return tr("Host");
    case Kind:
      return tr("Event");
    case Explanation:
      return tr("What happens");
    default:
      return {};
  }
}

QVariant EventListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto& e = rec_->events[static_cast<std::size_t>(index.row())];
  if (role == Qt::FontRole && index.row() == current_) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role == Qt::BackgroundRole) {
    if (index.row() == current_) return QBrush(QColor(0xff, 0xe0, 0x8a));
    if (index.row() > current_) return QBrush(QColor(0xf4, 0xf4, 0xf4));
    return {};
  }
  if (role == Qt::ForegroundRole && index.row() > current_) return QBrush(QColor(0x90, 0x90, 0x90));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case Index:
      return index.row() + 1;
    case Time:
      return QString::number(e.trace.time.micros(), 'f', 3);
    case Host:
      return e.host >= 0 ? QString::fromStdString(rec_->hostNames[static_cast<std::size_t>(e.host)])
                         : tr("link");
    case Kind:
      // Ceph's messenger: the step's own name ("copy-into-chunk"), as `sim --trace` prints it.
      return e.ceph ? toQString(sim::toString(e.ceph->kind))
                    : toQString(sim::toString(e.trace.kind));
    case Explanation: {
      const std::string text = sim::describe(e.trace);
      // A frame the simulator's narration does not describe (Ceph's): its ladder label.
      if (text.empty() && e.trace.kind == sim::TraceKind::FrameSent && e.frame >= 0 &&
          static_cast<std::size_t>(e.frame) < rec_->frameLabels.size())
        return tr("frame %1: %2")
            .arg(e.frame + 1)
            .arg(QString::fromStdString(rec_->frameLabels[static_cast<std::size_t>(e.frame)]));
      return QString::fromStdString(text);
    }
    default:
      return {};
  }
}

}  // namespace rdmascope::ui
