#pragma once
// What the scenario's host tables (host_state_models) and the fabric's (fabric_models) show
// alike: QP and WQE cells with their colours, and the table view both host panes use.

#include <QBrush>
#include <QColor>
#include <QString>
#include <QVariant>
#include <cstdint>
#include <string>
#include <string_view>

#include "rdmascope/sim/host.h"

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace rdmascope::ui::host_tables {

inline const QColor kGreen(0xd8, 0xf5, 0xd0);
inline const QColor kRed(0xff, 0xb3, 0xb3);
inline const QColor kYellow(0xff, 0xec, 0xa8);

QString toQString(std::string_view s);
/// "0x1a2b".
QString hex(std::uint64_t v);

/// A QP state cell's background: green in RTS, red in ERR or SQE, yellow on the way.
QBrush qpStateBrush(sim::QpState state);

/// A WQE row's background by its state: done green, error red, processing or pending yellow,
/// none otherwise.
QVariant wqeBrush(const std::string& state);

/// The header of a WQE table's column: a send queue's wr_id, Opcode, Bytes, State, PSNs or a
/// receive queue's wr_id, Bytes, State (null past the last).
QVariant wqeHeader(bool receiveQueue, int section);

/// A WQE row's DisplayRole cell: a send queue's wr_id, opcode, bytes, state and PSNs, or a
/// receive queue's wr_id, bytes and state.
QVariant wqeCell(const sim::WqeView& wqe, bool receiveQueue, int column);

/// A read-only table for a host pane: no grid, no selection, rows one line high.
QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, const QString& name);

}  // namespace rdmascope::ui::host_tables
