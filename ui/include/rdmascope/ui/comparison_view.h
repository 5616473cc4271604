#pragma once
/// @file comparison_view.h
/// The comparison of the TCP socket path, RoCEv2 and iWARP moving one message of the chosen
/// size, from the host cost model (sim::estimateTransfer): bar charts of latency, CPU time and
/// bytes copied by the CPU, and a table of every counter.

#include <QAbstractTableModel>
#include <QWidget>
#include <array>
#include <cstdint>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/transfer_cost.h"

class QComboBox;
class QLabel;
class QTableView;

namespace rdmascope::ui {

/// The transports compared, in column order.
inline constexpr std::array<sim::Transport, 3> kComparedTransports = {
    sim::Transport::Tcp, sim::Transport::RoceV2, sim::Transport::Iwarp};

/// A table over three TransferEstimates: one row per quantity, one column per transport.
/// Qt::DisplayRole gives the formatted value, ValueRole the number itself (nanoseconds, bytes,
/// counts; the bottleneck row has no number).
class ComparisonModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Row {
    Latency,
    Throughput,
    CpuTime,
    CpuBytesCopied,
    CopiesPerByte,
    CopyOperations,
    Syscalls,
    ContextSwitches,
    Interrupts,
    Doorbells,
    Frames,
    AckFrames,
    WireBytes,
    MemoryBusBytes,
    Bottleneck,
    RowCount
  };
  static constexpr int ValueRole = Qt::UserRole + 1;

  explicit ComparisonModel(QObject* parent = nullptr,
                           const sim::HostCostSettings& settings = sim::HostCostSettings{});

  /// Recomputes the three estimates for a message of `bytes` (at least 1).
  void setTransferSize(std::uint64_t bytes);
  std::uint64_t transferSize() const { return bytes_; }
  /// The RDMA operation RoCEv2 and iWARP move the message with (TCP always sends).
  void setRdmaOp(sim::RdmaOp op);
  sim::RdmaOp rdmaOp() const { return op_; }
  /// The estimate shown in a column.
  const sim::TransferEstimate& estimate(int column) const;

  /// CPU time the row "CPU time" shows: the model's CPU work on both hosts, and, when RDMA
  /// completions are polled, the whole latency for each host that spins on ibv_poll_cq waiting
  /// for its completion (host A always; host B for a SEND, whose receive it waits for).
  static double cpuBusyNs(const sim::TransferEstimate& e, const sim::HostCostSettings& s);
  /// Throughput the row "Throughput" shows: bytes per second of a stream of such messages sent
  /// back to back, limited by the busiest resource (CPU, DMA, NIC or wire direction), not one
  /// message's size over its latency.
  static double streamRate(const sim::TransferEstimate& e);
  /// The definition of a row, shown as its header's tooltip.
  static QString rowDefinition(int row);
  /// Why RoCEv2 and iWARP differ at this size (frames, bytes per frame, latency).
  QString roceIwarpNote() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  sim::HostCostSettings settings_;
  void recompute();

  std::uint64_t bytes_ = 0;
  sim::RdmaOp op_ = sim::RdmaOp::Send;
  std::array<sim::TransferEstimate, kComparedTransports.size()> estimates_;
};

/// A bar chart of one quantity for the three transports, drawn with QPainter.
class ComparisonBarChart : public QWidget {
  Q_OBJECT
 public:
  ComparisonBarChart(ComparisonModel* model, ComparisonModel::Row row, QString title,
                     QWidget* parent = nullptr);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  ComparisonModel::Row row() const { return row_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  ComparisonModel* model_;
  ComparisonModel::Row row_;
  QString title_;
};

/// The comparison tab: a transfer size selector (4 KiB to 1 GiB), three bar charts and the
/// counter table.
class ComparisonView : public QWidget {
  Q_OBJECT
 public:
  explicit ComparisonView(QWidget* parent = nullptr, std::uint64_t initialBytes = 64 * 1024);

  /// Selects a transfer size; sizes not in the selector's list are added to it.
  void setTransferSize(std::uint64_t bytes);
  std::uint64_t transferSize() const { return model_->transferSize(); }
  ComparisonModel* model() const { return model_; }
  /// Says which transfer the comparison shows (empty: the default note).
  void setCaption(const QString& text);
  QString caption() const;
  QComboBox* sizeBox() const { return sizeBox_; }
  QTableView* table() const { return table_; }
  /// The note under the table that says why RoCEv2 and iWARP differ.
  QLabel* note() const { return note_; }
  const std::array<ComparisonBarChart*, 3>& charts() const { return charts_; }

 private:
  ComparisonModel* model_;
  QComboBox* sizeBox_;
  QTableView* table_;
  QLabel* caption_;
  QLabel* note_;
  std::array<ComparisonBarChart*, 3> charts_{};
};

/// "4 KiB", "64 KiB", "1 MiB", "1 GiB"; other sizes in bytes with the largest exact unit.
QString formatTransferSize(std::uint64_t bytes);

}  // namespace rdmascope::ui
