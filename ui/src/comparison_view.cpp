#include "rdmascope/ui/comparison_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace rdmascope::ui {
namespace {

QString formatNs(double ns) {
  if (ns < 1e3) return QStringLiteral("%1 ns").arg(ns, 0, 'f', 0);
  if (ns < 1e6) return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', 2);
  if (ns < 1e9) return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 2);
  return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 3);
}

QString formatCount(std::uint64_t n) {
  return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

/// Bytes for a chart label: the binary unit that keeps the number short.
QString formatBytesShort(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return QStringLiteral("%1 %2")
      .arg(bytes, 0, 'f', unit == 0 || bytes >= 100 ? 0 : 1)
      .arg(QLatin1String(kUnits[unit]));
}

// The row's header in English, marked for translation in the model's context.
const char* rowName(int row) {
  switch (row) {
    case ComparisonModel::Latency:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Latency");
    case ComparisonModel::Throughput:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Throughput (message stream)");
    case ComparisonModel::CpuTime:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "CPU time (both hosts)");
    case ComparisonModel::CpuBytesCopied:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Bytes copied by the CPU");
    case ComparisonModel::CopiesPerByte:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "CPU copies per payload byte");
    case ComparisonModel::CopyOperations:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Copy operations");
    case ComparisonModel::Syscalls:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "System calls");
    case ComparisonModel::ContextSwitches:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Context switches");
    case ComparisonModel::Interrupts:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Interrupts");
    case ComparisonModel::Doorbells:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Doorbells");
    case ComparisonModel::Frames:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Data frames");
    case ComparisonModel::AckFrames:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "ACK frames");
    case ComparisonModel::WireBytes:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Bytes on the wire");
    case ComparisonModel::MemoryBusBytes:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Memory bus bytes");
    case ComparisonModel::Bottleneck:
      return QT_TRANSLATE_NOOP("rdmascope::ui::ComparisonModel", "Bottleneck");
    default:
      return "";
  }
}

QColor transportColor(int column) {
  static const QColor kColors[] = {QColor(0xd0, 0x70, 0x20), QColor(0x2a, 0x6f, 0xb8),
                                   QColor(0x3a, 0x96, 0x4a)};
  return kColors[column];
}

QString transportName(int column) {
  switch (kComparedTransports[static_cast<std::size_t>(column)]) {
    case sim::Transport::Tcp:
      return QStringLiteral("TCP");
    case sim::Transport::RoceV2:
      return QStringLiteral("RoCEv2");
    case sim::Transport::Iwarp:
      return QStringLiteral("iWARP");
  }
  return {};
}

}  // namespace

QString formatTransferSize(std::uint64_t bytes) {
  static constexpr std::pair<std::uint64_t, const char*> kUnits[] = {
      {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}};
  for (const auto& [scale, name] : kUnits)
    if (bytes >= scale && bytes % scale == 0)
      return QStringLiteral("%1 %2").arg(bytes / scale).arg(QLatin1String(name));
  return QStringLiteral("%1 B").arg(bytes);
}

ComparisonModel::ComparisonModel(QObject* parent, const sim::HostCostSettings& settings)
    : QAbstractTableModel(parent), settings_(settings) {
  setTransferSize(64 * 1024);
}

void ComparisonModel::setTransferSize(std::uint64_t bytes) {
  bytes = std::max<std::uint64_t>(bytes, 1);
  if (bytes == bytes_) return;
  bytes_ = bytes;
  recompute();
}

void ComparisonModel::setRdmaOp(sim::RdmaOp op) {
  if (op == op_) return;
  op_ = op;
  recompute();
}

void ComparisonModel::recompute() {
  sim::TransferOptions options;
  options.op = op_;
  for (std::size_t i = 0; i < kComparedTransports.size(); ++i)
    estimates_[i] = sim::estimateTransfer(kComparedTransports[i], bytes_, settings_, options);
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

const sim::TransferEstimate& ComparisonModel::estimate(int column) const {
  return estimates_.at(static_cast<std::size_t>(column));
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : RowCount;
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(kComparedTransports.size());
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const sim::TransferEstimate& e = estimate(index.column());
  const sim::TransferCounters& c = e.counters;
  if (role == Qt::TextAlignmentRole) return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && index.row() == CpuBytesCopied)
    return c.cpuBytesCopied > 0 ? QVariant(QColor(0xa4, 0x00, 0x00)) : QVariant();
  if (role == ValueRole) {
    switch (index.row()) {
      case Latency:
        return e.latencyNs;
      case Throughput:
        return streamRate(e);
      case CpuTime:
        return cpuBusyNs(e, settings_);
      case CpuBytesCopied:
        return QVariant::fromValue<qulonglong>(c.cpuBytesCopied);
      case CopiesPerByte:
        return c.copiesPerByte;
      case CopyOperations:
        return QVariant::fromValue<qulonglong>(c.copyOperations);
      case Syscalls:
        return QVariant::fromValue<qulonglong>(c.syscalls);
      case ContextSwitches:
        return QVariant::fromValue<qulonglong>(c.contextSwitches);
      case Interrupts:
        return QVariant::fromValue<qulonglong>(c.interrupts);
      case Doorbells:
        return QVariant::fromValue<qulonglong>(c.doorbells);
      case Frames:
        return QVariant::fromValue<qulonglong>(c.frames);
      case AckFrames:
        return QVariant::fromValue<qulonglong>(c.ackFrames);
      case WireBytes:
        return QVariant::fromValue<qulonglong>(c.wireBytes);
      case MemoryBusBytes:
        return QVariant::fromValue<qulonglong>(c.memoryBusBytes);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) return rowDefinition(index.row());
  if (role != Qt::DisplayRole) return {};
  switch (index.row()) {
    case Latency:
      return formatNs(e.latencyNs);
    case Throughput:
      return QStringLiteral("%1 Gbit/s").arg(streamRate(e) * 8 / 1e9, 0, 'f', 2);
    case CpuTime:
      return formatNs(cpuBusyNs(e, settings_));
    case CpuBytesCopied:
      return formatCount(c.cpuBytesCopied);
    case CopiesPerByte:
      return formatCount(c.copiesPerByte);
    case CopyOperations:
      return formatCount(c.copyOperations);
    case Syscalls:
      return formatCount(c.syscalls);
    case ContextSwitches:
      return formatCount(c.contextSwitches);
    case Interrupts:
      return formatCount(c.interrupts);
    case Doorbells:
      return formatCount(c.doorbells);
    case Frames:
      return formatCount(c.frames);
    case AckFrames:
      return formatCount(c.ackFrames);
    case WireBytes:
      return formatCount(c.wireBytes);
    case MemoryBusBytes:
      return formatCount(c.memoryBusBytes);
    case Bottleneck:
      return QString::fromStdString(e.bottleneck);
    default:
      return {};
  }
}

double ComparisonModel::cpuBusyNs(const sim::TransferEstimate& e, const sim::HostCostSettings& s) {
  const sim::TransferCounters& c = e.counters;
  if (e.transport == sim::Transport::Tcp || s.completion != sim::CompletionMode::Poll)
    return c.cpuNs();
  const double a = std::max(c.hostACpuNs, e.latencyNs);
  const double b = e.op == sim::RdmaOp::Send ? std::max(c.hostBCpuNs, e.latencyNs) : c.hostBCpuNs;
  return a + b;
}

double ComparisonModel::streamRate(const sim::TransferEstimate& e) {
  std::map<std::pair<sim::Place, sim::Worker>, double> busy;
  for (const sim::Stage& st : e.stages)
    if (st.worker != sim::Worker::Timer) busy[{st.place, st.worker}] += st.totalNs;
  double most = 0;
  for (const auto& [resource, ns] : busy)
    most = std::max(most, ns);
  return most > 0 ? static_cast<double>(e.bytes) * 1e9 / most : 0.0;
}

QString ComparisonModel::rowDefinition(int row) {
  switch (row) {
    case Latency:
      return tr(
          "From host A's first call (send() or posting the work request) until the side "
          "that waits sees the message complete, for one message on an idle link.");
    case Throughput:
      return tr(
          "Payload bytes per second when such messages follow each other back to back: "
          "the message size over the busy time of the busiest resource (a CPU, a DMA "
          "engine, a NIC or a direction of the wire). One message's size over its latency "
          "would mostly measure the latency.");
    case CpuTime:
      return tr(
          "Time the CPUs of both hosts are busy. For TCP: system calls, copies, protocol "
          "work and interrupts. For RDMA the CPU only posts work and reaps completions, "
          "but with completions polled (the default) a host that waits for its "
          "completion spins on ibv_poll_cq for the whole transfer: host A always, host B "
          "when it waits for a SEND. READ and WRITE leave host B's CPU idle.");
    case CpuBytesCopied:
      return tr(
          "Payload bytes a CPU copies (into and out of socket buffers). Zero-copy RDMA "
          "lets the NICs move the data by DMA instead.");
    case CopiesPerByte:
      return tr("How many times a CPU copies each payload byte.");
    case CopyOperations:
      return tr("Separate copy operations (one per send() or recv() call).");
    case Syscalls:
      return tr("System calls on both hosts. RDMA's data path has none (kernel bypass).");
    case ContextSwitches:
      return tr("Threads put to sleep and woken again, on both hosts.");
    case Interrupts:
      return tr("Interrupts on both hosts, after the NIC's interrupt coalescing.");
    case Doorbells:
      return tr("Writes by a CPU to a NIC register that tell it new work is queued.");
    case Frames:
      return tr("Ethernet frames carrying the message from A to B (READ: its responses).");
    case AckFrames:
      return tr("Acknowledgement frames sent back.");
    case WireBytes:
      return tr("Bytes on the wire both ways, with headers, preamble and inter-frame gap.");
    case MemoryBusBytes:
      return tr("Bytes moved over the memory bus: CPU copies (read and write) and NIC DMA.");
    case Bottleneck:
      return tr("The resource busy longest: it sets the throughput of a stream of messages.");
    default:
      return {};
  }
}

QString ComparisonModel::roceIwarpNote() const {
  const sim::TransferEstimate& roce = estimate(1);
  const sim::TransferEstimate& iwarp = estimate(2);
  auto perFrame = [](const sim::TransferEstimate& e) {
    return e.counters.frames ? (e.bytes + e.counters.frames - 1) / e.counters.frames : e.bytes;
  };
  const double diff = iwarp.latencyNs - roce.latencyNs;
  const double percent = roce.latencyNs > 0 ? 100.0 * std::abs(diff) / roce.latencyNs : 0.0;
  const QString verdict = std::abs(diff) < 0.5 ? tr("so both take as long")
                                               : (diff < 0 ? tr("so iWARP is %1 (%2%) faster")
                                                           : tr("so RoCEv2 is %1 (%2%) faster"))
                                                     .arg(formatNs(std::abs(diff)))
                                                     .arg(percent, 0, 'f', percent < 1 ? 2 : 0);
  return tr("RoCEv2: %1 frame(s) of up to %2 payload bytes (path MTU), UDP/IP + BTH + ICRC; "
            "iWARP: %3 frame(s) of up to %4 bytes (TCP segments), TCP/IP + MPA + DDP/RDMAP. "
            "Wire bytes %5 vs %6, %7. Neither copies; both NICs run the transport.")
      .arg(formatCount(roce.counters.frames))
      .arg(perFrame(roce))
      .arg(formatCount(iwarp.counters.frames))
      .arg(perFrame(iwarp))
      .arg(formatCount(roce.counters.wireBytes), formatCount(iwarp.counters.wireBytes), verdict);
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role == Qt::ToolTipRole && orientation == Qt::Vertical) return rowDefinition(section);
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) {
    if (section < 0 || section >= columnCount()) return {};
    return transportName(section);
  }
  if (section < 0 || section >= rowCount()) return {};
  return tr(rowName(section));
}

ComparisonBarChart::ComparisonBarChart(ComparisonModel* model, ComparisonModel::Row row,
                                       QString title, QWidget* parent)
    : QWidget(parent), model_(model), row_(row), title_(std::move(title)) {
  connect(model_, &QAbstractItemModel::dataChanged, this, qOverload<>(&QWidget::update));
}

QSize ComparisonBarChart::sizeHint() const {
  return {260, 220};
}
QSize ComparisonBarChart::minimumSizeHint() const {
  return {160, 140};
}

void ComparisonBarChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  const int line = fm.height();
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(palette().text().color());
  p.drawText(QRect(0, 4, width(), line), Qt::AlignHCenter, title_);
  p.setFont(font());

  const int columns = model_->columnCount();
  std::array<double, kComparedTransports.size()> values{};
  double maxValue = 0;
  for (int c = 0; c < columns; ++c) {
    values[static_cast<std::size_t>(c)] =
        model_->index(row_, c).data(ComparisonModel::ValueRole).toDouble();
    maxValue = std::max(maxValue, values[static_cast<std::size_t>(c)]);
  }
  // Plot area: below the title and the value labels, above the transport names.
  const QRect plot(12, 8 + 2 * line, width() - 24, height() - (8 + 2 * line) - (line + 10));
  if (plot.height() <= 0 || plot.width() <= 0) return;
  p.setPen(palette().mid().color());
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  const double slot = plot.width() / static_cast<double>(columns);
  const double barWidth = std::min(slot * 0.6, 80.0);
  for (int c = 0; c < columns; ++c) {
    const double v = values[static_cast<std::size_t>(c)];
    const double h = maxValue > 0 ? plot.height() * (v / maxValue) : 0;
    const double x = plot.left() + slot * c + (slot - barWidth) / 2;
    const QRectF bar(x, plot.bottom() - h, barWidth, h);
    p.fillRect(bar, transportColor(c));
    const QString label = row_ == ComparisonModel::CpuBytesCopied
                              ? formatBytesShort(v)
                              : model_->index(row_, c).data().toString();
    p.setPen(palette().text().color());
    p.drawText(QRectF(plot.left() + slot * c, bar.top() - line - 2, slot, line), Qt::AlignCenter,
               label);
    p.drawText(QRectF(plot.left() + slot * c, plot.bottom() + 4, slot, line), Qt::AlignCenter,
               transportName(c));
  }
}

ComparisonView::ComparisonView(QWidget* parent, std::uint64_t initialBytes)
    : QWidget(parent),
      model_(new ComparisonModel(this)),
      sizeBox_(new QComboBox(this)),
      table_(new QTableView(this)) {
  sizeBox_->setObjectName(QStringLiteral("transferSizeBox"));
  for (std::uint64_t b = 4 * 1024; b <= (1ull << 30); b *= 4)
    sizeBox_->addItem(formatTransferSize(b), QVariant::fromValue<qulonglong>(b));
  sizeBox_->setToolTip(tr("Size of the one message each transport moves"));

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Transfer size:"), this));
  top->addWidget(sizeBox_);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("comparisonCaption"));
  caption_->setWordWrap(true);  // it sets the simulated run beside the model: a long sentence
  setCaption({});
  top->addWidget(caption_, 1);

  auto* chartRow = new QHBoxLayout;
  charts_ = {new ComparisonBarChart(model_, ComparisonModel::Latency, tr("Latency"), this),
             new ComparisonBarChart(model_, ComparisonModel::CpuTime, tr("CPU time"), this),
             new ComparisonBarChart(model_, ComparisonModel::CpuBytesCopied,
                                    tr("Bytes copied by the CPU"), this)};
  for (auto* chart : charts_)
    chartRow->addWidget(chart);

  table_->setObjectName(QStringLiteral("comparisonTable"));
  table_->setModel(model_);
  table_->setShowGrid(false);
  table_->setWordWrap(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);

  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("comparisonNote"));
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto updateNote = [this] { note_->setText(model_->roceIwarpNote()); };
  connect(model_, &QAbstractItemModel::dataChanged, note_, updateNote);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addLayout(chartRow, 1);
  layout->addWidget(table_, 1);
  layout->addWidget(note_);

  connect(sizeBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) model_->setTransferSize(sizeBox_->itemData(i).toULongLong());
  });
  setTransferSize(initialBytes);
  updateNote();
}

void ComparisonView::setCaption(const QString& text) {
  caption_->setText(text.isEmpty() ? tr("one message, host A to host B, from the host cost model")
                                   : text);
  caption_->setEnabled(!text.isEmpty());
}

QString ComparisonView::caption() const {
  return caption_->text();
}

void ComparisonView::setTransferSize(std::uint64_t bytes) {
  int i = sizeBox_->findData(QVariant::fromValue<qulonglong>(bytes));
  if (i < 0) {
    int at = 0;
    while (at < sizeBox_->count() && sizeBox_->itemData(at).toULongLong() < bytes)
      ++at;
    sizeBox_->insertItem(at, formatTransferSize(bytes), QVariant::fromValue<qulonglong>(bytes));
    i = at;
  }
  sizeBox_->setCurrentIndex(i);
  model_->setTransferSize(bytes);
}

}  // namespace rdmascope::ui
