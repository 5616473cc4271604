#pragma once
/// @file detail_tree_model.h
/// The packet detail tree over one packets::Dissection: protocols, headers and fields from
/// Node::parent, and each diagnostic as an expert row under the node it concerns (frame-wide
/// diagnostics at the end of the top level), as Wireshark shows expert info.

#include <QAbstractItemModel>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::ui {

/// A byte range of the frame; length 0 means none.
struct ByteRange {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  bool operator==(const ByteRange&) const = default;
};

/// The memory region a RETH's rkey (and VA) names in a simulated run: the annotation the
/// detail tree shows beside those fields, and where a double-click leads.
struct MrLink {
  QString text;   ///< e.g. "→ host-b MR #1 buf (rkey 0x1234, LOCAL_WRITE | REMOTE_WRITE)"
  int host = -1;  ///< the host that owns the MR
  int mr = -1;    ///< its index in that host's MR list; -1: no MR has this rkey (no jump)
};

class DetailTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  /// Role returning the filter key of a row (QString; empty for expert rows).
  static constexpr int KeyRole = Qt::UserRole + 1;
  /// Role returning true for expert (diagnostic) rows.
  static constexpr int ExpertRole = Qt::UserRole + 2;
  /// Role returning true for a RETH rkey or VA row linked to a known MR (see setMrLink).
  static constexpr int MrLinkRole = Qt::UserRole + 3;

  explicit DetailTreeModel(QObject* parent = nullptr);

  /// Shows a dissection (shared, not copied); null shows nothing.
  void setDissection(std::shared_ptr<const packets::Dissection> dissection);
  const std::shared_ptr<const packets::Dissection>& dissection() const { return dissection_; }
  /// The MR the shown frame's RETH names (a simulated run; capture files have none): its
  /// rkey row shows the annotation, its rkey and VA rows' tooltips too. setDissection clears it.
  void setMrLink(std::optional<MrLink> link);
  const std::optional<MrLink>& mrLink() const { return mrLink_; }
  /// Whether a row is a RETH (or AtomicETH) rkey or VA field.
  bool isRemoteKeyRow(const QModelIndex& index) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// The bytes a row covers (an expert row: those of its node).
  ByteRange byteRange(const QModelIndex& index) const;
  /// The row of a node of the dissection.
  QModelIndex indexOfNode(std::int32_t node) const;
  /// The deepest (then smallest) node covering a byte, or an invalid index.
  QModelIndex deepestAt(std::uint32_t byteOffset) const;
  /// The node a row shows, -1 for an expert row or an invalid index.
  std::int32_t nodeOf(const QModelIndex& index) const;

 private:
  // An item is a node (>= 0) or a diagnostic (-(d + 2)); -1 is the root.
  using Item = std::int32_t;
  static Item diagItem(std::size_t d) { return -static_cast<Item>(d) - 2; }
  Item itemOf(const QModelIndex& index) const;
  QModelIndex indexOfItem(Item item) const;
  Item parentOf(Item item) const;

  std::shared_ptr<const packets::Dissection> dissection_;
  std::optional<MrLink> mrLink_;
  std::vector<std::vector<Item>> children_;  // [0]: root, [n + 1]: node n
  std::vector<int> rowOfNode_;
  std::vector<int> rowOfDiag_;
};

}  // namespace rdmascope::ui
