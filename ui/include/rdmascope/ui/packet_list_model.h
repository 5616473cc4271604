#pragma once
/// @file packet_list_model.h
/// The packet list (No., Time, Source, Destination, Protocol, Length, Info) over a FrameStore.
/// Rows are decoded lazily through a small LRU cache; the model owns no frame data.

#include <QAbstractTableModel>
#include <functional>
#include <memory>
#include <vector>

#include "rdmascope/packets/dissection.h"
#include "rdmascope/ui/dissection_cache.h"
#include "rdmascope/ui/time_display_format.h"

namespace rdmascope::ui {

class FrameStore;

class PacketListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Number, Time, Source, Destination, Protocol, Length, Info, ColumnCount };
  /// Role returning the 0-based frame index of a row (qulonglong).
  static constexpr int FrameRole = Qt::UserRole + 1;
  /// Role returning the frame's CrcStatus as an int (0 Absent, 1 Good, 2 Bad).
  static constexpr int CrcRole = Qt::UserRole + 2;

  /// A display filter compiled to a test over one dissection.
  using Predicate = std::function<bool(const packets::Dissection&)>;
  /// Called during filtering with (frames done, total); returns false to cancel.
  using Progress = std::function<bool(std::size_t, std::size_t)>;
  /// The field keys a display filter reads: frames can then be tested on a lean dissection
  /// (packets::DecodeOptions::lean) instead of a full one. Null: test full dissections.
  using LeanKeys = std::shared_ptr<const packets::ValueKeys>;

  explicit PacketListModel(const FrameStore* store, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// Frame shown at a row.
  std::size_t frameAt(int row) const;
  /// Row showing a frame, or -1 when the filter hides it.
  int rowOfFrame(std::size_t frame) const;
  /// The (cached) dissection of a frame.
  std::shared_ptr<const packets::Dissection> dissection(std::size_t frame) const;

  /// Call after the store was cleared or refilled.
  void storeReset();
  /// Call after frames were appended to the store (live capture, simulation).
  void storeAppended();

  /// Shows at most the first `limit` frames of the store (a scenario shows the frames on the
  /// wire by the current event); SIZE_MAX shows all.
  void setFrameLimit(std::size_t limit);
  std::size_t frameLimit() const { return limit_; }

  /// Shows only the frames the predicate accepts; false (and nothing changed) when cancelled.
  /// With `lean`, frames are tested, split over the machine's cores, on the values of those
  /// keys read straight from the header bytes (packets::FieldExtractor) where it can read
  /// every key for the frame, else on lean dissections of those keys (frames that may be part
  /// of a TCP stream keep their stateful dissection); the predicate must then read only the
  /// nodes of those keys and be safe to call from several threads at once.
  bool applyFilter(Predicate predicate, const Progress& progress = {}, LeanKeys lean = {});
  /// Shows every frame.
  void clearFilter();
  bool filtered() const { return static_cast<bool>(predicate_); }

  /// How the frames of the last filter applied were tested.
  struct FilterStats {
    std::size_t extracted = 0;  ///< on fields read straight from the bytes (the fast path)
    std::size_t dissected = 0;  ///< on a lean dissection
    std::size_t cached = 0;     ///< on the cache's dissection (stream frames, or every frame
                                ///< without lean keys)
  };
  const FilterStats& lastFilterStats() const { return stats_; }

  const DissectionCache& cache() const { return cache_; }

  /// How the Time column shows a frame's time (View > Time Display Format).
  void setTimeFormat(TimeFormat format);
  TimeFormat timeFormat() const { return timeFormat_; }

 private:
  bool filterLean(const Predicate& predicate, const Progress& progress,
                  const packets::ValueKeys& lean, std::vector<std::uint32_t>& visible,
                  FilterStats& stats);

  const FrameStore* store_;
  mutable DissectionCache cache_;
  Predicate predicate_;
  std::vector<std::uint32_t> visible_;  // frames shown when filtered
  std::size_t known_ = 0;               // frames of the store the model has announced
  std::size_t limit_ = SIZE_MAX;
  TimeFormat timeFormat_ = TimeFormat::SinceCaptureStart;
  FilterStats stats_;
};

}  // namespace rdmascope::ui
