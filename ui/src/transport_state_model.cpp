#include "rdmascope/ui/transport_state_model.h"

#include <QFont>

namespace rdmascope::ui {

TransportStateModel::TransportStateModel(QObject* parent) : QAbstractTableModel(parent) {}

void TransportStateModel::setState(RecordingTransport transport, const TransportHostState* state,
                                   const TransportHostState* previous) {
  beginResetModel();
  using R = Row;
  if (transport == RecordingTransport::TcpSockets)
    rows_ = {R::SendCalls, R::RecvCalls, R::Copies,       R::CopiedIn,   R::Acked,
             R::Received,  R::CopiedOut, R::SegmentsSent, R::Interrupts, R::Application};
  else if (transport == RecordingTransport::Iwarp)
    rows_ = {R::Mpa,       R::Stags,       R::WorkPosted, R::DdpSent,
             R::DdpPlaced, R::Completions, R::RnicTcp,    R::SegmentsSent};
  else if (transport == RecordingTransport::CephRdma)
    rows_ = {R::CephQp,    R::CephMessages, R::CephCopies,   R::CephZeroCopy, R::CephSyscalls,
             R::CephSends, R::CephPolled,   R::CephReposted, R::CephCpu,      R::CephRun};
  else if (transport == RecordingTransport::CephPosix)
    rows_ = {R::CephMessages, R::CephCopies, R::CephSyscalls, R::CephCpu, R::CephRun};
  else
    rows_.clear();
  hasState_ = state != nullptr;
  hasPrevious_ = previous != nullptr;
  if (state) state_ = *state;
  if (previous) previous_ = *previous;
  if (!hasState_) rows_.clear();
  endResetModel();
}

int TransportStateModel::rowOf(Row kind) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i] == kind) return static_cast<int>(i);
  return -1;
}

int TransportStateModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TransportStateModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString TransportStateModel::value(Row row, const TransportHostState& st) const {
  const SocketBufferState& s = st.socket;
  const IwarpHostState& w = st.iwarp;
  switch (row) {
    case Row::SendCalls:
      return QString::number(s.sendCalls);
    case Row::RecvCalls:
      return QString::number(s.recvCalls);
    case Row::Copies:
      return QString::number(s.copies);
    case Row::CopiedIn:
      return tr("%1 bytes").arg(s.copiedIn);
    case Row::Acked:
      return tr("%1 bytes").arg(s.acked);
    case Row::Received:
      return tr("%1 bytes").arg(s.received);
    case Row::CopiedOut:
      return tr("%1 bytes").arg(s.copiedOut);
    case Row::SegmentsSent:
      return QString::number(s.segmentsSent);
    case Row::Interrupts:
      return QString::number(s.interrupts);
    case Row::Application:
      return s.appSleeping ? tr("asleep in the kernel") : tr("running");
    case Row::Stags:
      return QString::number(w.stagsRegistered);
    case Row::WorkPosted:
      return QString::number(w.workPosted);
    case Row::DdpSent:
      return tr("%1 (%2 bytes)").arg(w.segmentsSent).arg(w.bytesSent);
    case Row::DdpPlaced:
      return tr("%1 (%2 bytes placed)").arg(w.segmentsPlaced).arg(w.bytesPlaced);
    case Row::Completions:
      return QString::number(w.completions);
    case Row::Mpa:
      if (w.connection.empty()) return tr("not connected");
      return tr("markers %1, CRC %2")
          .arg(w.markers ? tr("on") : tr("off"), w.crc ? tr("on") : tr("off"));
    case Row::RnicTcp:
      return tr("%1 bytes unacknowledged, %2 in flight").arg(s.sendQueued).arg(s.inFlight);
    case Row::CephQp:
      return st.ceph.qpReady          ? tr("QP in RTS: SENDs may flow")
             : st.ceph.qpInfoReceived ? tr("peer's QP information read")
             : st.ceph.qpInfoSent     ? tr("own QP information written")
                                      : tr("not exchanged yet");
    case Row::CephCopies:
      return tr("%1 (%2 bytes)").arg(st.ceph.copies).arg(st.ceph.copyBytes);
    case Row::CephZeroCopy:
      return tr("%1 bytes").arg(st.ceph.zeroCopyBytes);
    case Row::CephSyscalls:
      return QString::number(st.ceph.syscalls);
    case Row::CephSends:
      return QString::number(st.ceph.sends);
    case Row::CephPolled:
      return QString::number(st.ceph.polled);
    case Row::CephReposted:
      return QString::number(st.ceph.reposted);
    case Row::CephMessages:
      return tr("%1 sent, %2 delivered").arg(st.ceph.messagesSent).arg(st.ceph.messagesDelivered);
    case Row::CephCpu:
      return tr("%1 us").arg(st.ceph.cpuNs / 1000.0, 0, 'f', 2);
    case Row::CephRun:
      return tr("%1 copies, %2 system calls, %3 us CPU")
          .arg(st.ceph.run.copies)
          .arg(st.ceph.run.syscalls)
          .arg(st.ceph.run.cpuNs / 1000.0, 0, 'f', 1);
  }
  return {};
}

QVariant TransportStateModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !hasState_) return {};
  const Row row = rows_[static_cast<std::size_t>(index.row())];
  const bool changed = hasPrevious_ && value(row, state_) != value(row, previous_);
  if (role == Qt::FontRole && changed) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (index.column() == Value) return value(row, state_);
  switch (row) {
    case Row::SendCalls:
      return tr("send() calls");
    case Row::RecvCalls:
      return tr("recv() calls");
    case Row::Copies:
      return tr("CPU copies");
    case Row::CopiedIn:
      return tr("Copied app → send buffer");
    case Row::Acked:
      return tr("Acknowledged by the peer");
    case Row::Received:
      return tr("Arrived in order");
    case Row::CopiedOut:
      return tr("Copied receive buffer → app");
    case Row::SegmentsSent:
      return tr("TCP segments sent");
    case Row::Interrupts:
      return tr("Interrupts");
    case Row::Application:
      return tr("Application");
    case Row::Stags:
      return tr("STags registered");
    case Row::WorkPosted:
      return tr("Work requests posted");
    case Row::DdpSent:
      return tr("DDP segments framed");
    case Row::DdpPlaced:
      return tr("DDP segments placed");
    case Row::Completions:
      return tr("Completions");
    case Row::Mpa:
      return tr("MPA");
    case Row::RnicTcp:
      return tr("TCP in the RNIC");
    case Row::CephQp:
      return tr("QP information");
    case Row::CephCopies:
      return tr("CPU copies");
    case Row::CephZeroCopy:
      return tr("Sent without a copy");
    case Row::CephSyscalls:
      return tr("System calls");
    case Row::CephSends:
      return tr("SENDs posted");
    case Row::CephPolled:
      return tr("Completions polled");
    case Row::CephReposted:
      return tr("Chunks reposted");
    case Row::CephMessages:
      return tr("Messages");
    case Row::CephCpu:
      return tr("CPU time of these steps");
    case Row::CephRun:
      return tr("Whole run (with TCP/IP)");
  }
  return {};
}

QVariant TransportStateModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == Quantity ? tr("Quantity") : tr("Value");
}

}  // namespace rdmascope::ui
