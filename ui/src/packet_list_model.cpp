#include "rdmascope/ui/packet_list_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "rdmascope/packets/field_extractor.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// AETH syndrome bits 6:5: 00 ACK, 01 RNR NAK, 11 NAK (IBTA 9.7.5.2.1).
bool isNak(const packets::Dissection& d) {
  const packets::Node* syndrome = d.find("infiniband.aeth.syndrome");
  if (syndrome && syndrome->hasNumber) return (syndrome->number & 0x60) != 0;
  return d.summary.info.find("NAK") != std::string::npos;
}

// Wireshark-like colouring rules: integrity errors first, then NAKs, then by protocol.
QColor background(const packets::Dissection& d) {
  if (d.crc == packets::CrcStatus::Bad || d.hasErrors()) return QColor(0xa4, 0x00, 0x00);
  if (isNak(d)) return QColor(0xff, 0xe0, 0x8a);
  const std::string& p = d.summary.protocol;
  if (p == "RRoCE" || p == "RoCE" || p == "InfiniBand" || p == "IB")
    return QColor(0xee, 0xe6, 0xff);
  if (p.rfind("iWARP", 0) == 0 || p == "DDP/RDMA" || p == "MPA") return QColor(0xe4, 0xff, 0xc7);
  if (p == "TCP") return QColor(0xe7, 0xe6, 0xff);
  if (p == "UDP") return QColor(0xda, 0xee, 0xff);
  return {};
}

}  // namespace

PacketListModel::PacketListModel(const FrameStore* store, QObject* parent)
    : QAbstractTableModel(parent), store_(store), cache_(store), known_(store->size()) {}

int PacketListModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return static_cast<int>(predicate_ ? visible_.size() : known_);
}

int PacketListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

std::size_t PacketListModel::frameAt(int row) const {
  return predicate_ ? visible_[static_cast<std::size_t>(row)] : static_cast<std::size_t>(row);
}

int PacketListModel::rowOfFrame(std::size_t frame) const {
  if (!predicate_) return frame < known_ ? static_cast<int>(frame) : -1;
  auto it = std::lower_bound(visible_.begin(), visible_.end(), frame);
  if (it == visible_.end() || *it != frame) return -1;
  return static_cast<int>(it - visible_.begin());
}

std::shared_ptr<const packets::Dissection> PacketListModel::dissection(std::size_t frame) const {
  return cache_.get(frame);
}

QVariant PacketListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const std::size_t frame = frameAt(index.row());
  switch (role) {
    case FrameRole:
      return QVariant::fromValue<qulonglong>(frame);
    case Qt::TextAlignmentRole:
      if (index.column() == Number || index.column() == Time || index.column() == Length)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::DisplayRole:
      break;
    case CrcRole:
      return static_cast<int>(cache_.get(frame)->crc);
    case Qt::BackgroundRole: {
      QColor c = background(*cache_.get(frame));
      return c.isValid() ? QVariant(QBrush(c)) : QVariant();
    }
    case Qt::ForegroundRole: {
      const auto d = cache_.get(frame);
      if (d->crc == packets::CrcStatus::Bad || d->hasErrors())
        return QBrush(QColor(0xff, 0xfc, 0x9c));
      return {};
    }
    case Qt::ToolTipRole: {
      const auto d = cache_.get(frame);
      QStringList lines;
      if (d->crc == packets::CrcStatus::Bad) lines << tr("Bad integrity check (ICRC/VCRC/CRC32c)");
      if (d->crc == packets::CrcStatus::Good) lines << tr("Integrity check good");
      for (const auto& diag : d->diagnostics)
        lines << qs(diag.message);
      return lines.isEmpty() ? QVariant() : QVariant(lines.join('\n'));
    }
    default:
      return {};
  }
  switch (index.column()) {
    case Number:
      return QVariant::fromValue<qulonglong>(frame + 1);
    case Time: {
      const auto ns = [this](std::size_t f) { return store_->record(f).timestampNs; };
      const std::size_t previous = index.row() > 0 ? frameAt(index.row() - 1) : frame;
      return formatFrameTime(ns(frame), ns(0), ns(previous), timeFormat_);
    }
    case Length:
      return store_->record(frame).originalLength;
    default:
      break;
  }
  const auto d = cache_.get(frame);
  switch (index.column()) {
    case Source:
      return qs(d->summary.source);
    case Destination:
      return qs(d->summary.destination);
    case Protocol:
      return qs(d->summary.protocol);
    case Info:
      return qs(d->summary.info);
    default:
      return {};
  }
}

void PacketListModel::setTimeFormat(TimeFormat format) {
  if (format == timeFormat_) return;
  timeFormat_ = format;
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, Time), index(rowCount() - 1, Time));
}

QVariant PacketListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Number:
      return tr("No.");
    case Time:
      return tr("Time");
    case Source:
      return tr("Source");
    case Destination:
      return tr("Destination");
    case Protocol:
      return tr("Protocol");
    case Length:
      return tr("Length");
    case Info:
      return tr("Info");
    default:
      return {};
  }
}

void PacketListModel::storeReset() {
  beginResetModel();
  cache_.clear();
  predicate_ = {};
  visible_.clear();
  known_ = std::min(store_->size(), limit_);
  endResetModel();
}

void PacketListModel::setFrameLimit(std::size_t limit) {
  if (limit == limit_) return;
  const std::size_t shownBefore = known_;
  limit_ = limit;
  const std::size_t target = std::min(store_->size(), limit_);
  if (predicate_) {
    beginResetModel();
    known_ = target;
    visible_.clear();
    for (std::size_t f = 0; f < known_; ++f)
      if (predicate_(*cache_.get(f))) visible_.push_back(static_cast<std::uint32_t>(f));
    endResetModel();
    return;
  }
  if (target > shownBefore) {
    beginInsertRows({}, static_cast<int>(shownBefore), static_cast<int>(target - 1));
    known_ = target;
    endInsertRows();
  } else if (target < shownBefore) {
    beginRemoveRows({}, static_cast<int>(target), static_cast<int>(shownBefore - 1));
    known_ = target;
    endRemoveRows();
  }
}

void PacketListModel::storeAppended() {
  const std::size_t total = std::min(store_->size(), limit_);
  if (total <= known_) return;
  if (!predicate_) {
    beginInsertRows({}, static_cast<int>(known_), static_cast<int>(total - 1));
    known_ = total;
    endInsertRows();
    return;
  }
  std::vector<std::uint32_t> added;
  for (std::size_t f = known_; f < total; ++f)
    if (predicate_(*cache_.get(f))) added.push_back(static_cast<std::uint32_t>(f));
  known_ = total;
  if (added.empty()) return;
  const int first = static_cast<int>(visible_.size());
  beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
  visible_.insert(visible_.end(), added.begin(), added.end());
  endInsertRows();
}

bool PacketListModel::applyFilter(Predicate predicate, const Progress& progress, LeanKeys lean) {
  std::vector<std::uint32_t> visible;
  FilterStats stats;
  if (lean) {
    if (!filterLean(predicate, progress, *lean, visible, stats)) return false;
  } else {
    stats.cached = known_;
    for (std::size_t f = 0; f < known_; ++f) {
      if (progress && f % 1024 == 0 && !progress(f, known_)) return false;
      // Peeking keeps the cache holding what the user looks at.
      if (predicate(*cache_.peek(f))) visible.push_back(static_cast<std::uint32_t>(f));
    }
  }
  if (progress) progress(known_, known_);
  stats_ = stats;
  beginResetModel();
  predicate_ = std::move(predicate);
  visible_ = std::move(visible);
  endResetModel();
  return true;
}

bool PacketListModel::filterLean(const Predicate& predicate, const Progress& progress,
                                 const packets::ValueKeys& lean,
                                 std::vector<std::uint32_t>& visible, FilterStats& stats) {
  const std::size_t total = known_;
  const packets::LinkType link = store_->linkType();
  packets::DecodeOptions options;
  options.lean = &lean;
  // The fields the filter reads, straight from the header bytes where the extractor can read
  // every one of them exactly as the lean dissection would (the CLI's -Y fast path); other
  // frames are dissected.
  const packets::FieldExtractor extractor(lean, options);
  const packets::FieldExtractor* fast = extractor.usable() ? &extractor : nullptr;
  // Workers test the frames outside TCP streams in blocks and mark the matches; this thread
  // reports progress and tests the stream frames through the cache (whose stateful decoder is
  // not shared), in frame order.
  std::vector<std::uint8_t> match(total, 0);
  std::vector<std::uint8_t> stream(total, 0);
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> extracted{0};
  std::atomic<bool> stop{false};
  constexpr std::size_t kBlock = 4096;
  // Tests one block; false when none is left.
  auto block = [&](packets::Dissection& scratch) {
    const std::size_t begin = next.fetch_add(kBlock);
    if (begin >= total || stop.load(std::memory_order_relaxed)) return false;
    const std::size_t end = std::min(total, begin + kBlock);
    std::size_t read = 0;
    for (std::size_t f = begin; f < end; ++f) {
      const auto bytes = store_->bytes(f);
      if (mayBeTcp(bytes, link)) {
        stream[f] = 1;
        continue;
      }
      const packets::FrameInfo info = store_->frameInfo(f);
      if (fast && fast->extract(scratch, bytes, link, info))
        ++read;
      else
        packets::decodeFrameInto(scratch, bytes, link, info, options);
      match[f] = predicate(scratch) ? 1 : 0;
    }
    extracted.fetch_add(read);
    done.fetch_add(end - begin);
    return true;
  };
  const unsigned helpers = std::max(1u, std::thread::hardware_concurrency()) - 1;
  std::vector<std::thread> threads;
  threads.reserve(helpers);
  for (unsigned i = 0; i < helpers; ++i)
    threads.emplace_back([&] {
      packets::Dissection scratch;
      while (block(scratch)) {
      }
    });
  bool cancelled = false;
  packets::Dissection scratch;
  while (!cancelled && block(scratch))
    cancelled = progress && !progress(done.load(), total);
  while (!cancelled && done.load() < total) {
    cancelled = progress && !progress(done.load(), total);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  for (auto& t : threads)
    t.join();
  // The workers may have tested every block before this thread asked once: a cancel still
  // counts.
  if (!cancelled && progress) cancelled = !progress(done.load(), total);
  if (cancelled) return false;
  stats.extracted = extracted.load();
  for (std::size_t f = 0; f < total; ++f) {
    if (stream[f]) {
      if (progress && f % 1024 == 0 && !progress(f, total)) return false;
      match[f] = predicate(*cache_.peek(f)) ? 1 : 0;
      ++stats.cached;
    }
    if (match[f]) visible.push_back(static_cast<std::uint32_t>(f));
  }
  stats.dissected = total - stats.extracted - stats.cached;
  return true;
}

void PacketListModel::clearFilter() {
  if (!predicate_) return;
  beginResetModel();
  predicate_ = {};
  visible_.clear();
  endResetModel();
}

}  // namespace rdmascope::ui
