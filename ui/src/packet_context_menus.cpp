#include "rdmascope/ui/packet_context_menus.h"

#include <QAction>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QTreeView>

#include "rdmascope/ui/field_filter.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {

GoToPacketDialog::GoToPacketDialog(PacketPane& pane, QWidget* parent)
    : QDialog(parent), pane_(pane) {
  setObjectName(QStringLiteral("goToPacketDialog"));
  setWindowTitle(tr("Go to Packet"));
  number_ = new QSpinBox(this);
  number_->setObjectName(QStringLiteral("goToPacketNumber"));
  number_->setRange(1, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &GoToPacketDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &GoToPacketDialog::reject);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Packet number:"), number_);
  form->addRow(buttons);
}

bool GoToPacketDialog::goTo(int number) {
  const std::size_t frames = pane_.store().size();
  if (number < 1 || static_cast<std::size_t>(number) > frames) {
    error_ = tr("There is no packet %1 (the capture has %2).").arg(number).arg(frames);
    return false;
  }
  error_.clear();
  return pane_.selectFrame(static_cast<std::size_t>(number - 1));
}

void GoToPacketDialog::accept() {
  if (goTo(number_->value())) {
    pane_.packetList()->setFocus();
    QDialog::accept();
  }
}

PacketContextMenus::PacketContextMenus(PacketPane& pane) : QObject(&pane), pane_(pane) {
  goTo_ = new QAction(tr("&Go to Packet..."), this);
  goTo_->setObjectName(QStringLiteral("goToPacketAction"));
  goTo_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
  goTo_->setShortcutContext(Qt::WindowShortcut);
  pane.addAction(goTo_);
  connect(goTo_, &QAction::triggered, this, [this] {
    GoToPacketDialog* d = goToPacketDialog();
    const int frames = static_cast<int>(pane_.store().size());
    d->numberBox()->setRange(1, std::max(1, frames));
    if (pane_.currentFrame() >= 0) d->numberBox()->setValue(int(pane_.currentFrame()) + 1);
    d->numberBox()->selectAll();
    d->open();
    d->numberBox()->setFocus();
  });

  for (QAbstractItemView* v : {static_cast<QAbstractItemView*>(pane.packetList()),
                               static_cast<QAbstractItemView*>(pane.detailTree())}) {
    v->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(v, &QWidget::customContextMenuRequested, this, [this, v](const QPoint& pos) {
      const QModelIndex idx = v->indexAt(pos);
      if (!idx.isValid()) return;
      QMenu* menu = v == pane_.packetList() ? listMenu(idx, v) : treeMenu(idx, v);
      menu->setAttribute(Qt::WA_DeleteOnClose);
      menu->popup(v->viewport()->mapToGlobal(pos));
    });
  }
  list_ = pane.packetList();
  list_->installEventFilter(this);
}

GoToPacketDialog* PacketContextMenus::goToPacketDialog() {
  if (!dialog_) dialog_ = new GoToPacketDialog(pane_, pane_.window());
  return dialog_;
}

void PacketContextMenus::addFilterActions(QMenu& menu, const QString& filter, const QString& key,
                                          const QString& value) {
  QAction* apply = menu.addAction(tr("Apply as Filter"), this, [this, filter] {
    pane_.filterBar()->setText(filter);
    pane_.filterBar()->apply();
  });
  apply->setObjectName(QStringLiteral("applyAsFilter"));
  QAction* prepare = menu.addAction(tr("Prepare as Filter"), this, [this, filter] {
    pane_.filterBar()->setText(filter);
    pane_.filterBar()->check();
    pane_.filterBar()->lineEdit()->setFocus();
  });
  prepare->setObjectName(QStringLiteral("prepareAsFilter"));
  for (QAction* a : {apply, prepare}) {
    a->setEnabled(!filter.isEmpty());
    a->setToolTip(filter);
    a->setData(filter);
  }
  menu.addSeparator();
  QMenu* copy = menu.addMenu(tr("Copy"));
  QAction* copyValue =
      copy->addAction(tr("Value"), this, [value] { QGuiApplication::clipboard()->setText(value); });
  copyValue->setObjectName(QStringLiteral("copyValue"));
  copyValue->setEnabled(!value.isEmpty());
  QAction* copyKey = copy->addAction(tr("Field Name"), this,
                                     [key] { QGuiApplication::clipboard()->setText(key); });
  copyKey->setObjectName(QStringLiteral("copyFieldName"));
  copyKey->setEnabled(!key.isEmpty());
  QAction* copyFilter = copy->addAction(
      tr("As Filter"), this, [filter] { QGuiApplication::clipboard()->setText(filter); });
  copyFilter->setObjectName(QStringLiteral("copyAsFilter"));
  copyFilter->setEnabled(!filter.isEmpty());
}

QMenu* PacketContextMenus::treeMenu(const QModelIndex& index, QWidget* parent) {
  auto* menu = new QMenu(parent);
  menu->setObjectName(QStringLiteral("detailTreeMenu"));
  const auto& d = pane_.detailModel()->dissection();
  const std::int32_t node = pane_.detailModel()->nodeOf(index);
  QString filter, key, value;
  if (d && node >= 0) {
    const auto& n = d->nodes[static_cast<std::size_t>(node)];
    filter = filterForNode(*d, static_cast<std::size_t>(node));
    key = QString::fromUtf8(n.key.data(), static_cast<qsizetype>(n.key.size()));
    value = QString::fromStdString(n.value);
  } else {
    value = index.data().toString();
  }
  addFilterActions(*menu, filter, key, value);
  return menu;
}

QMenu* PacketContextMenus::listMenu(const QModelIndex& index, QWidget* parent) {
  auto* menu = new QMenu(parent);
  menu->setObjectName(QStringLiteral("packetListMenu"));
  const auto* model = pane_.packetModel();
  const std::size_t frame = model->frameAt(index.row());
  const auto d = model->dissection(frame);
  const QString filter =
      filterForColumn(*d, index.column(), frame + 1, pane_.store().record(frame).originalLength);
  addFilterActions(*menu, filter, fieldKeyForColumn(*d, index.column()), index.data().toString());
  menu->addSeparator();
  menu->addAction(goTo_);
  return menu;
}

bool PacketContextMenus::eventFilter(QObject* watched, QEvent* event) {
  if (watched != list_) return false;
  if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  if ((key->key() != Qt::Key_Home && key->key() != Qt::Key_End) ||
      (key->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier)
    return false;
  // The window's Home/End step the scenario; in the list they move to its first/last row.
  if (event->type() == QEvent::ShortcutOverride) {
    event->accept();
    return true;
  }
  const int rows = pane_.packetModel()->rowCount();
  if (rows == 0) return true;
  const int row = key->key() == Qt::Key_Home ? 0 : rows - 1;
  pane_.selectFrame(pane_.packetModel()->frameAt(row));
  return true;
}

}  // namespace rdmascope::ui
