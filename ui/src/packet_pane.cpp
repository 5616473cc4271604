#include "rdmascope/ui/packet_pane.h"

#include <QApplication>
#include <QHeaderView>
#include <QProgressDialog>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/packet_context_menus.h"

namespace rdmascope::ui {

namespace {

// Expands the protocol rows a learner cares about: RDMA headers and expert info.
bool expandByDefault(const QString& key) {
  return key.startsWith(QLatin1String("infiniband")) || key.startsWith(QLatin1String("iwarp")) ||
         key.startsWith(QLatin1String("rroce")) || key.startsWith(QLatin1String("roce"));
}

}  // namespace

PacketPane::PacketPane(FrameStore* store, QWidget* parent) : QWidget(parent), store_(store) {
  packetModel_ = new PacketListModel(store_, this);
  detailModel_ = new DetailTreeModel(this);
  filter_ = new FilterBar(this);

  list_ = new QTableView(this);
  list_->setObjectName(QStringLiteral("packetList"));
  list_->setModel(packetModel_);
  list_->setSelectionBehavior(QAbstractItemView::SelectRows);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setShowGrid(false);
  list_->setWordWrap(false);
  list_->verticalHeader()->hide();
  // Fixed row heights keep a million-row list from measuring every row.
  list_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  list_->verticalHeader()->setDefaultSectionSize(list_->fontMetrics().height() + 4);
  list_->horizontalHeader()->setStretchLastSection(true);
  list_->horizontalHeader()->setHighlightSections(false);
  const int cw = list_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  list_->setColumnWidth(PacketListModel::Number, cw * 6);
  list_->setColumnWidth(PacketListModel::Time, cw * 12);
  list_->setColumnWidth(PacketListModel::Source, cw * 13);
  list_->setColumnWidth(PacketListModel::Destination, cw * 13);
  list_->setColumnWidth(PacketListModel::Protocol, cw * 9);
  list_->setColumnWidth(PacketListModel::Length, cw * 7);

  tree_ = new QTreeView(this);
  tree_->setObjectName(QStringLiteral("detailTree"));
  tree_->setModel(detailModel_);
  tree_->setHeaderHidden(true);
  tree_->setUniformRowHeights(true);
  tree_->setExpandsOnDoubleClick(true);

  hex_ = new HexView(this);
  hex_->setObjectName(QStringLiteral("hexView"));

  // Wireshark's layout with the details and the bytes side by side under the list.
  lower_ = new QSplitter(Qt::Horizontal, this);
  lower_->setObjectName(QStringLiteral("detailsAndBytes"));
  lower_->addWidget(tree_);
  lower_->addWidget(hex_);
  lower_->setStretchFactor(0, 1);
  lower_->setStretchFactor(1, 0);
  lower_->setChildrenCollapsible(false);
  vsplit_ = new QSplitter(Qt::Vertical, this);
  vsplit_->addWidget(list_);
  vsplit_->addWidget(lower_);
  vsplit_->setStretchFactor(0, 2);
  vsplit_->setStretchFactor(1, 3);
  vsplit_->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(filter_);
  layout->addWidget(vsplit_, 1);
  menus_ = new PacketContextMenus(*this);
  lower_->installEventFilter(this);
  // Scenario frames arrive after the reset, row by row: fit the columns to the first ones.
  connect(packetModel_, &QAbstractItemModel::rowsInserted, this, [this] {
    if (!columnsFitted_) QTimer::singleShot(0, this, &PacketPane::fitColumnsToContents);
  });

  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) {
            showFrame(cur.isValid() ? static_cast<qint64>(packetModel_->frameAt(cur.row())) : -1);
          });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& cur) {
            const ByteRange r = detailModel_->byteRange(cur);
            hex_->setHighlight(r.offset, r.length);
            Q_EMIT fieldSelected(cur.data(DetailTreeModel::KeyRole).toString(), r);
          });
  connect(tree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& idx) {
    const auto& link = detailModel_->mrLink();
    if (link && idx.data(DetailTreeModel::MrLinkRole).toBool())
      Q_EMIT mrLinkActivated(link->host, link->mr);
  });
  connect(hex_, &HexView::byteClicked, this, [this](std::uint32_t offset) {
    const QModelIndex idx = detailModel_->deepestAt(offset);
    if (!idx.isValid()) return;
    tree_->scrollTo(idx);
    tree_->setCurrentIndex(idx);
  });
  connect(filter_, &FilterBar::filterApplied, this,
          [this](const QString&, PacketListModel::Predicate p, PacketListModel::LeanKeys lean) {
            applyFilter(std::move(p), std::move(lean));
          });
  connect(filter_, &FilterBar::filterCleared, this, [this] {
    const qint64 keep = current_;
    packetModel_->clearFilter();
    if (keep >= 0) selectFrame(static_cast<std::size_t>(keep));
  });
}

void PacketPane::applyFilter(PacketListModel::Predicate predicate, PacketListModel::LeanKeys lean) {
  const qint64 keep = current_;
  QProgressDialog progress(tr("Filtering packets..."), tr("Cancel"), 0, 1000, this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(400);
  const bool done = packetModel_->applyFilter(
      std::move(predicate),
      [&progress](std::size_t doneFrames, std::size_t total) {
        progress.setValue(total ? static_cast<int>(doneFrames * 1000 / total) : 1000);
        QApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        return !progress.wasCanceled();
      },
      std::move(lean));
  if (!done) return;
  const int row = keep >= 0 ? packetModel_->rowOfFrame(static_cast<std::size_t>(keep)) : -1;
  if (row >= 0) {
    list_->selectRow(row);
    list_->scrollTo(packetModel_->index(row, 0));
  } else if (packetModel_->rowCount() > 0) {
    list_->selectRow(0);
  } else {
    showFrame(-1);
  }
}

void PacketPane::storeReset() {
  packetModel_->storeReset();
  filter_->setText({});
  current_ = -2;
  showFrame(-1);
  columnsFitted_ = false;
  fitColumnsToContents();
}

void PacketPane::fitColumnsToContents() {
  if (columnsFitted_ || packetModel_->rowCount() == 0) return;
  columnsFitted_ = true;
  const int cw = list_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  // Only the rows in view are measured (QTableView), so a million-row capture costs nothing.
  for (int c : {PacketListModel::Time, PacketListModel::Source, PacketListModel::Destination,
                PacketListModel::Protocol, PacketListModel::Length}) {
    list_->resizeColumnToContents(c);
    list_->setColumnWidth(c, std::clamp(list_->columnWidth(c), cw * 5, cw * 26));
  }
  // The last frame's number is the widest; the rows in view are the first ones.
  const QString last = QString::number(store_->size());
  list_->setColumnWidth(
      PacketListModel::Number,
      std::max(list_->horizontalHeader()->sectionSizeHint(PacketListModel::Number),
               list_->fontMetrics().horizontalAdvance(last) + cw * 2));
}

void PacketPane::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrangeDetailsAndBytes();
}

bool PacketPane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == lower_ && event->type() == QEvent::Resize) shareStackedHeight();
  return QWidget::eventFilter(watched, event);
}

void PacketPane::shareStackedHeight() {
  if (lower_->orientation() != Qt::Vertical) return;
  const int total = lower_->height() - lower_->handleWidth();
  const int line = hex_->fontMetrics().lineSpacing() + 1;
  const int lines = static_cast<int>((hex_->bytes().size() + 15) / 16);
  const int bytes = std::clamp((std::max(lines, 3) + 1) * line, 3 * line, total * 45 / 100);
  lower_->setSizes({total - bytes, bytes});
}

void PacketPane::arrangeDetailsAndBytes() {
  const int hexWidth = hex_->sizeHint().width() + 2;
  // Side by side only when the tree keeps room for a header's summary line ("Internet Protocol
  // Version 4, Src: 10.9.0.2, Dst: 10.9.0.1" and the field lines under it); else stacked.
  const int treeWidth = tree_->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 60;
  const bool sideBySide = width() >= hexWidth + treeWidth + lower_->handleWidth();
  const Qt::Orientation o = sideBySide ? Qt::Horizontal : Qt::Vertical;
  const bool changed = lower_->orientation() != o;
  if (changed) lower_->setOrientation(o);
  if (sideBySide) {
    lower_->setSizes({width() - hexWidth - lower_->handleWidth(), hexWidth});
    if (changed) vsplit_->setSizes({4000, 6000});
  } else if (changed) {
    // Three panes stacked: the list keeps a third, the tree a little more than the bytes.
    vsplit_->setSizes({3400, 6600});
    shareStackedHeight();
  }
}

void PacketPane::storeAppended() {
  packetModel_->storeAppended();
}

bool PacketPane::selectFrame(std::size_t frame) {
  if (frame >= store_->size()) return false;
  int row = packetModel_->rowOfFrame(frame);
  if (row < 0 && packetModel_->filtered()) {
    filter_->setText({});
    packetModel_->clearFilter();
    row = packetModel_->rowOfFrame(frame);
  }
  if (row < 0) return false;
  const QModelIndex idx = packetModel_->index(row, 0);
  list_->setCurrentIndex(idx);
  list_->selectionModel()->select(idx,
                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  list_->scrollTo(idx);
  showFrame(static_cast<qint64>(frame));
  return true;
}

bool PacketPane::selectField(const QString& key) {
  const auto& d = detailModel_->dissection();
  if (!d) return false;
  const std::string k = key.toStdString();
  for (std::size_t n = 0; n < d->nodes.size(); ++n) {
    if (d->nodes[n].key != k) continue;
    const QModelIndex idx = detailModel_->indexOfNode(static_cast<std::int32_t>(n));
    tree_->scrollTo(idx);
    tree_->setCurrentIndex(idx);
    return true;
  }
  return false;
}

void PacketPane::setMrLinker(MrLinker linker) {
  mrLinker_ = std::move(linker);
}

void PacketPane::showFrame(qint64 frame) {
  if (frame == current_) return;
  current_ = frame;
  if (frame < 0 || static_cast<std::size_t>(frame) >= store_->size()) {
    detailModel_->setDissection(nullptr);
    hex_->setBytes({});
    Q_EMIT frameSelected(-1);
    return;
  }
  const auto f = static_cast<std::size_t>(frame);
  detailModel_->setDissection(packetModel_->dissection(f));
  if (mrLinker_) detailModel_->setMrLink(mrLinker_(f));
  const auto bytes = store_->bytes(f);
  hex_->setBytes(QByteArray(reinterpret_cast<const char*>(bytes.data()),
                            static_cast<qsizetype>(bytes.size())));
  shareStackedHeight();
  for (int r = 0; r < detailModel_->rowCount(); ++r) {
    const QModelIndex idx = detailModel_->index(r, 0);
    if (expandByDefault(idx.data(DetailTreeModel::KeyRole).toString())) {
      tree_->expand(idx);
      // Its headers too (BTH, RETH, ...), which is what a learner came to see.
      for (int c = 0; c < detailModel_->rowCount(idx); ++c)
        tree_->expand(detailModel_->index(c, 0, idx));
    }
  }
  // Expert rows under collapsed headers would hide a bad CRC; open their parents.
  const auto& d = detailModel_->dissection();
  for (const auto& diag : d->diagnostics) {
    QModelIndex p = detailModel_->indexOfNode(diag.node);
    while (p.isValid()) {
      tree_->expand(p);
      p = p.parent();
    }
  }
  Q_EMIT frameSelected(frame);
}

}  // namespace rdmascope::ui
