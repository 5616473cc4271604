#pragma once
/// @file transport_state_model.h
/// One host's TCP socket path, iWARP RNIC state or Ceph messenger counters at the current event
/// of a TCP, iWARP or Ceph recording (transport_host_state.h), as rows of a table: quantity and
/// value. Rows that
/// changed at the current event are marked bold.

#include <QAbstractTableModel>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

class TransportStateModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Quantity, Value, ColumnCount };
  /// What each row shows.
  enum class Row : std::uint8_t {
    SendCalls,
    RecvCalls,
    Copies,
    CopiedIn,
    Acked,
    Received,
    CopiedOut,
    SegmentsSent,
    Interrupts,
    Application,
    Stags,
    WorkPosted,
    DdpSent,
    DdpPlaced,
    Completions,
    Mpa,
    RnicTcp,
    CephQp,        ///< Ceph RDMA: QP information written, read; QP in RTS
    CephCopies,    ///< Ceph: CPU copies of message bytes
    CephZeroCopy,  ///< Ceph RDMA: bytes sent from registered chunks without a copy
    CephSyscalls,  ///< Ceph: system calls of the messenger's steps
    CephSends,     ///< Ceph RDMA: signalled SENDs posted
    CephPolled,    ///< Ceph RDMA: completions polled
    CephReposted,  ///< Ceph RDMA: chunks posted back to the SRQ
    CephMessages,  ///< Ceph: messages sent and delivered
    CephCpu,       ///< Ceph: CPU time of the steps so far
    CephRun        ///< Ceph: the whole run's copies, system calls and CPU time
  };

  explicit TransportStateModel(QObject* parent = nullptr);

  /// Shows `state` (null: nothing) for a recording over `transport`; `previous` marks changes.
  void setState(RecordingTransport transport, const TransportHostState* state,
                const TransportHostState* previous);
  Row rowKind(int row) const { return rows_[static_cast<std::size_t>(row)]; }
  /// The row showing `kind`, -1 when this transport has none.
  int rowOf(Row kind) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QString value(Row row, const TransportHostState& s) const;

  std::vector<Row> rows_;
  TransportHostState state_;
  TransportHostState previous_;
  bool hasState_ = false;
  bool hasPrevious_ = false;
};

}  // namespace rdmascope::ui
