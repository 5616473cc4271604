#pragma once
/// @file packet_pane.h
/// The Wireshark-like packet pane: display filter bar, packet list, detail tree and hex view,
/// with selection linked both ways between the tree and the bytes.

#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_list_model.h"

class QSplitter;
class QTableView;
class QTreeView;

namespace rdmascope::ui {

class HexView;
class PacketContextMenus;

class PacketPane : public QWidget {
  Q_OBJECT
 public:
  /// The pane shows `store`, which must outlive it.
  explicit PacketPane(FrameStore* store, QWidget* parent = nullptr);

  FrameStore& store() { return *store_; }
  PacketListModel* packetModel() const { return packetModel_; }
  DetailTreeModel* detailModel() const { return detailModel_; }
  QTableView* packetList() const { return list_; }
  QTreeView* detailTree() const { return tree_; }
  HexView* hexView() const { return hex_; }
  FilterBar* filterBar() const { return filter_; }
  QSplitter* splitter() const { return vsplit_; }
  /// Right-click menus, Go to Packet and Home/End in the list.
  PacketContextMenus* contextMenus() const { return menus_; }

  /// Call after the store was refilled (a capture was opened, a scenario restarted).
  void storeReset();
  /// Call after frames were appended to the store.
  void storeAppended();

  /// Selects a frame (clears the filter when it hides the frame); false if out of range.
  bool selectFrame(std::size_t frame);
  /// The selected frame, or -1.
  qint64 currentFrame() const { return current_; }
  /// Selects the detail row of the first node with the key (e.g. "infiniband.bth.psn").
  bool selectField(const QString& key);
  /// What names the MR of a frame's RETH (a simulated run); empty (a capture file): no links.
  using MrLinker = std::function<std::optional<MrLink>(std::size_t frame)>;
  void setMrLinker(MrLinker linker);

 Q_SIGNALS:
  /// The selected frame changed (-1: none).
  void frameSelected(qint64 frame);
  /// The selected detail row changed; `key` is its filter key.
  void fieldSelected(const QString& key, ByteRange range);
  /// A linked RETH rkey or VA row was double-clicked: show MR `mr` of host `host`.
  void mrLinkActivated(int host, int mr);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showFrame(qint64 frame);
  /// Details and bytes side by side when the whole hex rows (with their ASCII) and a useful
  /// tree fit, else stacked as in Wireshark's default layout.
  void arrangeDetailsAndBytes();
  /// Stacked: the bytes get the lines the frame needs (at most 45%), the tree the rest.
  void shareStackedHeight();
  /// Sizes Source, Destination and Protocol to the rows shown (once after each reset).
  void fitColumnsToContents();
  void applyFilter(PacketListModel::Predicate predicate, PacketListModel::LeanKeys lean = {});

  FrameStore* store_;
  PacketListModel* packetModel_;
  DetailTreeModel* detailModel_;
  FilterBar* filter_;
  QTableView* list_;
  QTreeView* tree_;
  HexView* hex_;
  QSplitter* vsplit_;
  QSplitter* lower_;
  PacketContextMenus* menus_;
  bool columnsFitted_ = false;
  qint64 current_ = -1;
  MrLinker mrLinker_;
};

}  // namespace rdmascope::ui
