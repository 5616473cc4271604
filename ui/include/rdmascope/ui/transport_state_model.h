#pragma once
/// @file transport_state_model.h
/// One host's TCP socket path or iWARP RNIC state at the current event of a TCP or iWARP
/// recording (transport_host_state.h), as rows of a table: quantity and value. Rows that
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
    RnicTcp
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
