#pragma once
/// @file packet_context_menus.h
/// Wireshark's habits in the packet pane: right-click menus on the detail tree and the packet
/// list (Apply as Filter, Prepare as Filter, Copy value, Copy field name), Go to Packet (Ctrl+G)
/// and Home/End moving to the first/last row while the packet list has the focus.

#include <QDialog>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QModelIndex;
class QSpinBox;

namespace rdmascope::ui {

class PacketPane;

/// The small Go to Packet dialog: a frame number, OK selects it.
class GoToPacketDialog : public QDialog {
  Q_OBJECT
 public:
  explicit GoToPacketDialog(PacketPane& pane, QWidget* parent = nullptr);
  QSpinBox* numberBox() const { return number_; }
  /// Selects frame `number` (1-based); false with a status message when there is none.
  bool goTo(int number);
  /// The last problem (empty when the last jump worked).
  QString error() const { return error_; }
  void accept() override;

 private:
  PacketPane& pane_;
  QSpinBox* number_;
  QString error_;
};

class PacketContextMenus : public QObject {
  Q_OBJECT
 public:
  /// Installs the menus and key handling on the pane (which owns this object).
  explicit PacketContextMenus(PacketPane& pane);

  /// The menu for a detail-tree row (what a right-click shows); the caller owns it.
  QMenu* treeMenu(const QModelIndex& index, QWidget* parent);
  /// The menu for a packet-list cell (the column picks the field); the caller owns it.
  QMenu* listMenu(const QModelIndex& index, QWidget* parent);
  /// Go to Packet (Ctrl+G): opens the dialog.
  QAction* goToPacketAction() const { return goTo_; }
  /// The dialog (created on first use).
  GoToPacketDialog* goToPacketDialog();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void addFilterActions(QMenu& menu, const QString& filter, const QString& key,
                        const QString& value);

  PacketPane& pane_;
  /// The packet list whose Home/End keys are filtered, kept apart from pane_: it still sends
  /// events while the pane is being destroyed, when pane_ may no longer be used.
  QObject* list_ = nullptr;
  QAction* goTo_;
  GoToPacketDialog* dialog_ = nullptr;
};

}  // namespace rdmascope::ui
