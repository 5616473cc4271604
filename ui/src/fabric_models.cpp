#include "rdmascope/ui/fabric_models.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QStringList>

#include "host_tables.h"
#include "rdmascope/sim/narration.h"
#include "rdmascope/ui/fabric_session.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/scenario_player.h"
#include "rdmascope/verbs/verbs_types.h"

namespace rdmascope::ui {

namespace {

using host_tables::hex;
using host_tables::kGreen;
using host_tables::toQString;

const QColor kGrey(0x90, 0x90, 0x90);
const QColor kHeld(0xff, 0xd5, 0x99);

}  // namespace

QString accessFlagNames(unsigned access) {
  // The ibv_access_flags values (verbs.h).
  static const struct {
    unsigned bit;
    const char* name;
  } flags[] = {{verbs::access::kLocalWrite, "LOCAL_WRITE"},
               {verbs::access::kRemoteWrite, "REMOTE_WRITE"},
               {verbs::access::kRemoteRead, "REMOTE_READ"},
               {verbs::access::kRemoteAtomic, "REMOTE_ATOMIC"},
               {1u << 4, "MW_BIND"},
               {1u << 5, "ZERO_BASED"},
               {1u << 6, "ON_DEMAND"},
               {1u << 7, "HUGETLB"},
               {1u << 20, "RELAXED_ORDERING"}};
  QStringList names;
  unsigned rest = access;
  for (const auto& f : flags) {
    if (access & f.bit) names << QString::fromLatin1(f.name);
    rest &= ~f.bit;
  }
  if (rest) names << hex(rest);
  return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(" | "));
}

QString ibvAccessNames(unsigned access) {
  if (access == 0) return QStringLiteral("none");
  QStringList names = accessFlagNames(access).split(QStringLiteral(" | "));
  for (QString& n : names)
    if (!n.startsWith(QLatin1String("0x"))) n.prepend(QLatin1String("IBV_ACCESS_"));
  return names.join(QStringLiteral(" | "));
}

FabricHostModel::FabricHostModel(FabricTable table, QObject* parent)
    : QAbstractTableModel(parent), table_(table) {}

void FabricHostModel::setState(const simdev::HostState* state, bool detached) {
  beginResetModel();
  state_ = state;
  detached_ = detached;
  endResetModel();
}

void FabricHostModel::setQp(std::uint32_t qpn) {
  beginResetModel();
  qpn_ = qpn;
  endResetModel();
}

const std::vector<sim::WqeView>* FabricHostModel::queue() const {
  if (!state_ || state_->qps.empty()) return nullptr;
  const sim::QpView* qp = &state_->qps.front();
  for (const auto& q : state_->qps)
    if (q.qpn == qpn_) qp = &q;
  return table_ == FabricTable::SendQueue ? &qp->sq : &qp->rq;
}

int FabricHostModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !state_) return 0;
  switch (table_) {
    case FabricTable::Pds:
      return static_cast<int>(state_->pds.size());
    case FabricTable::Mrs:
      return static_cast<int>(state_->mrs.size());
    case FabricTable::Qps:
      return static_cast<int>(state_->qps.size());
    case FabricTable::SendQueue:
    case FabricTable::RecvQueue: {
      const auto* q = queue();
      return q ? static_cast<int>(q->size()) : 0;
    }
    case FabricTable::Cqs:
      return static_cast<int>(state_->cqs.size());
  }
  return 0;
}

int FabricHostModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  switch (table_) {
    case FabricTable::Pds:
      return 1;
    case FabricTable::Mrs:
      return 6;
    case FabricTable::Qps:
      return 8;
    case FabricTable::SendQueue:
      return 5;
    case FabricTable::RecvQueue:
      return 3;
    case FabricTable::Cqs:
      return 3;
  }
  return 0;
}

QVariant FabricHostModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* pd[] = {QT_TR_NOOP("PD")};
  static const char* mr[] = {QT_TR_NOOP("PD"),     QT_TR_NOOP("lkey"),    QT_TR_NOOP("rkey"),
                             QT_TR_NOOP("Access"), QT_TR_NOOP("Address"), QT_TR_NOOP("Length")};
  static const char* qp[] = {QT_TR_NOOP("QPN"),      QT_TR_NOOP("Type"),   QT_TR_NOOP("State"),
                             QT_TR_NOOP("Dest QPN"), QT_TR_NOOP("SQ PSN"), QT_TR_NOOP("Acked PSN"),
                             QT_TR_NOOP("RQ PSN"),   QT_TR_NOOP("MSN")};
  static const char* cq[] = {QT_TR_NOOP("CQ"), QT_TR_NOOP("Depth"), QT_TR_NOOP("Not polled")};
  if (section < 0 || section >= columnCount()) return {};
  const auto i = static_cast<std::size_t>(section);
  switch (table_) {
    case FabricTable::Pds:
      return tr(pd[i]);
    case FabricTable::Mrs:
      return tr(mr[i]);
    case FabricTable::Qps:
      return tr(qp[i]);
    case FabricTable::SendQueue:
    case FabricTable::RecvQueue:
      return host_tables::wqeHeader(table_ == FabricTable::RecvQueue, section);
    case FabricTable::Cqs:
      return tr(cq[i]);
  }
  return {};
}

QVariant FabricHostModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto r = static_cast<std::size_t>(index.row());
  const int c = index.column();
  if (role == Qt::ForegroundRole && detached_) return QBrush(kGrey);
  if (role == Qt::BackgroundRole && detached_) return {};
  switch (table_) {
    case FabricTable::Pds:
      if (role != Qt::DisplayRole) return {};
      return state_->pds[r];
    case FabricTable::Mrs: {
      const auto& m = state_->mrs[r];
      if (role == Qt::ToolTipRole && c == 3) return accessFlagNames(m.access);
      if (role != Qt::DisplayRole) return {};
      switch (c) {
        case 0:
          return m.pd;
        case 1:
          return hex(m.lkey);
        case 2:
          return hex(m.rkey);
        case 3:
          return accessFlagNames(m.access);
        case 4:
          return hex(m.addr);
        case 5:
          return QVariant::fromValue<qulonglong>(m.length);
      }
      return {};
    }
    case FabricTable::Qps: {
      const auto& q = state_->qps[r];
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
          return q.destQpn ? hex(q.destQpn) : QString();
        case 4:
          return hex(q.sqPsn);
        case 5:
          return hex(q.compPsn);
        case 6:
          return hex(q.rqPsn);
        case 7:
          return q.msn;
      }
      return {};
    }
    case FabricTable::SendQueue:
    case FabricTable::RecvQueue: {
      const auto& w = (*queue())[r];
      if (role == Qt::BackgroundRole) return host_tables::wqeBrush(w.state);
      if (role != Qt::DisplayRole) return {};
      return host_tables::wqeCell(w, table_ == FabricTable::RecvQueue, c);
    }
    case FabricTable::Cqs: {
      const auto& q = state_->cqs[r];
      if (role == Qt::BackgroundRole && c == 2 && q.waiting > 0) return QBrush(kGreen);
      if (role != Qt::DisplayRole) return {};
      switch (c) {
        case 0:
          return q.id;
        case 1:
          return q.depth;
        case 2:
          return q.waiting;
      }
      return {};
    }
  }
  return {};
}

FabricTimelineModel::FabricTimelineModel(const FabricSession* session, const FrameStore* store,
                                         QObject* parent)
    : QAbstractTableModel(parent), session_(session), store_(store) {
  connect(session, &FabricSession::storeReset, this, [this] {
    beginResetModel();
    rows_ = session_->timeline().size();
    endResetModel();
  });
  connect(session, &FabricSession::timelineAppended, this,
          [this](std::size_t first, std::size_t count) {
            if (first != rows_) {
              beginResetModel();
              rows_ = first + count;
              endResetModel();
              return;
            }
            beginInsertRows({}, static_cast<int>(first), static_cast<int>(first + count - 1));
            rows_ = first + count;
            endInsertRows();
          });
  connect(session, &FabricSession::holdChanged, this, [this] {
    if (rows_) Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(rows_) - 1, ColumnCount - 1));
  });
}

int FabricTimelineModel::rowOfFrame(std::size_t frame) const {
  const auto& t = session_->timeline();
  for (std::size_t i = 0; i < rows_; ++i)
    if (t[i].frame == static_cast<std::int64_t>(frame)) return static_cast<int>(i);
  return -1;
}

int FabricTimelineModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_);
}

int FabricTimelineModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant FabricTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Time:
      return tr("Time");
    case Host:
      return tr("Host");
    case Kind:
      return tr("Event");
    case What:
      return tr("What happened");
    default:
      return {};
  }
}

QString describeFabricFrame(const FabricSession& session, const FrameStore& store,
                            std::size_t frame) {
  const auto s = sim::summarizeFrame(session.info().wire, store.bytes(frame));
  QString text = FabricTimelineModel::tr("frame %1").arg(frame + 1);
  const int to = session.frameDestination(frame);
  if (to) text += FabricTimelineModel::tr(" to host%1").arg(to);
  if (!s.opcodeName.empty()) {
    text += QStringLiteral(": %1  PSN %2").arg(QString::fromStdString(s.opcodeName)).arg(s.psn);
    if (s.destQp) text += QStringLiteral("  QP %1").arg(hex(s.destQp));
    if (s.payloadLen) text += FabricTimelineModel::tr("  %1 bytes").arg(s.payloadLen);
    if (s.hasAeth && (s.syndrome & 0x60) == 0x20) text += FabricTimelineModel::tr("  RNR NAK");
    if (s.hasAeth && (s.syndrome & 0x60) == 0x60) text += FabricTimelineModel::tr("  NAK");
  } else if (!s.ok) {
    text += QStringLiteral(": ") + QString::fromStdString(s.error);
  }
  if (session.frameHeld(frame)) text += FabricTimelineModel::tr("  [held at the switch]");
  return text;
}

QVariant FabricTimelineModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto& e = session_->timeline()[static_cast<std::size_t>(index.row())];
  using K = FabricTimelineEntry::Kind;
  if (role == FrameRole) return QVariant::fromValue<qlonglong>(e.frame);
  const bool held = e.kind == K::Frame && session_->frameHeld(static_cast<std::size_t>(e.frame));
  if (role == Qt::BackgroundRole) {
    if (held) return QBrush(kHeld);
    if (e.kind == K::Call) return QBrush(QColor(0xe8, 0xf0, 0xff));
    if (e.kind == K::Log) return QBrush(QColor(0xff, 0xf6, 0xd8));
    if (e.kind == K::Paused || e.kind == K::Resumed || e.kind == K::Closed)
      return QBrush(QColor(0xee, 0xee, 0xee));
    return {};
  }
  if (role == Qt::FontRole && (held || e.kind == K::Call)) {
    QFont f;
    f.setBold(held);
    if (e.kind == K::Call) f.setFamily(QStringLiteral("monospace"));
    return f;
  }
  if (role == Qt::ForegroundRole && e.kind == K::Detached) return QBrush(kGrey);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case Time:
      return QDateTime::fromMSecsSinceEpoch(e.timeNs / 1000000)
          .toString(QStringLiteral("HH:mm:ss.zzz"));
    case Host:
      return e.host ? QStringLiteral("host%1").arg(e.host) : tr("fabric");
    case Kind:
      switch (e.kind) {
        case K::Attached:
          return tr("attached");
        case K::Detached:
          return tr("detached");
        case K::Call:
          return tr("verbs call");
        case K::Log:
          return tr("log");
        case K::Frame:
          return held ? tr("frame (held)") : tr("frame");
        case K::Paused:
          return tr("paused");
        case K::Resumed:
          return tr("resumed");
        case K::Closed:
          return tr("fabric gone");
      }
      return {};
    case What:
      switch (e.kind) {
        case K::Frame:
          return describeFabricFrame(*session_, *store_, static_cast<std::size_t>(e.frame));
        case K::Detached:
          return tr("the program left; its last state stays until another attaches");
        case K::Paused:
          return tr("frames are held at the switch; programs stop at their next verbs call");
        case K::Resumed:
          return tr("held frames forwarded; programs run");
        default:
          return QString::fromStdString(e.text);
      }
    default:
      return {};
  }
}

}  // namespace rdmascope::ui
