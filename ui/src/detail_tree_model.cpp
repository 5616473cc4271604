#include "rdmascope/ui/detail_tree_model.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>

#include "rdmascope/ui/glossary.h"

namespace rdmascope::ui {

namespace {

QString severityText(packets::Severity s) {
  switch (s) {
    case packets::Severity::Note:
      return QCoreApplication::translate("DetailTreeModel", "Note");
    case packets::Severity::Warning:
      return QCoreApplication::translate("DetailTreeModel", "Warning");
    case packets::Severity::Error:
      return QCoreApplication::translate("DetailTreeModel", "Error");
  }
  return {};
}

}  // namespace

DetailTreeModel::DetailTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void DetailTreeModel::setMrLink(std::optional<MrLink> link) {
  // Set before the view expands the new frame's rows (PacketPane::showFrame): a reset is cheap.
  beginResetModel();
  mrLink_ = std::move(link);
  endResetModel();
}

bool DetailTreeModel::isRemoteKeyRow(const QModelIndex& index) const {
  const std::int32_t n = nodeOf(index);
  if (n < 0 || !dissection_) return false;
  const auto& key = dissection_->nodes[static_cast<std::size_t>(n)].key;
  return key == "infiniband.reth.r_key" || key == "infiniband.reth.va";
}

void DetailTreeModel::setDissection(std::shared_ptr<const packets::Dissection> dissection) {
  beginResetModel();
  mrLink_.reset();
  dissection_ = std::move(dissection);
  children_.clear();
  rowOfNode_.clear();
  rowOfDiag_.clear();
  if (dissection_) {
    const auto& nodes = dissection_->nodes;
    const auto& diags = dissection_->diagnostics;
    children_.resize(nodes.size() + 1);
    rowOfNode_.resize(nodes.size());
    rowOfDiag_.resize(diags.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      std::int32_t p = nodes[n].parent;
      if (p < -1 || p >= static_cast<std::int32_t>(nodes.size())) p = -1;
      auto& list = children_[static_cast<std::size_t>(p + 1)];
      rowOfNode_[n] = static_cast<int>(list.size());
      list.push_back(static_cast<Item>(n));
    }
    for (std::size_t d = 0; d < diags.size(); ++d) {
      std::int32_t n = diags[d].node;
      if (n < -1 || n >= static_cast<std::int32_t>(nodes.size())) n = -1;
      auto& list = children_[static_cast<std::size_t>(n + 1)];
      rowOfDiag_[d] = static_cast<int>(list.size());
      list.push_back(diagItem(d));
    }
  }
  endResetModel();
}

DetailTreeModel::Item DetailTreeModel::itemOf(const QModelIndex& index) const {
  if (!index.isValid()) return -1;
  return static_cast<Item>(static_cast<qint64>(index.internalId()) - 0x7fffffff);
}

DetailTreeModel::Item DetailTreeModel::parentOf(Item item) const {
  if (item >= 0) {
    const std::int32_t p = dissection_->nodes[static_cast<std::size_t>(item)].parent;
    return p < -1 || p >= static_cast<std::int32_t>(dissection_->nodes.size()) ? -1 : p;
  }
  if (item <= -2) {
    const std::int32_t n = dissection_->diagnostics[static_cast<std::size_t>(-item - 2)].node;
    return n < -1 || n >= static_cast<std::int32_t>(dissection_->nodes.size()) ? -1 : n;
  }
  return -1;
}

QModelIndex DetailTreeModel::indexOfItem(Item item) const {
  if (item == -1 || !dissection_) return {};
  const int row = item >= 0 ? rowOfNode_[static_cast<std::size_t>(item)]
                            : rowOfDiag_[static_cast<std::size_t>(-item - 2)];
  return createIndex(row, 0, static_cast<quintptr>(static_cast<qint64>(item) + 0x7fffffff));
}

QModelIndex DetailTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!dissection_ || column != 0 || row < 0) return {};
  const Item p = itemOf(parent);
  if (p < -1) return {};  // expert rows have no children
  const auto& list = children_[static_cast<std::size_t>(p + 1)];
  if (row >= static_cast<int>(list.size())) return {};
  return createIndex(
      row, 0,
      static_cast<quintptr>(static_cast<qint64>(list[static_cast<std::size_t>(row)]) + 0x7fffffff));
}

QModelIndex DetailTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || !dissection_) return {};
  return indexOfItem(parentOf(itemOf(child)));
}

int DetailTreeModel::rowCount(const QModelIndex& parent) const {
  if (!dissection_) return 0;
  if (parent.isValid() && parent.column() != 0) return 0;
  const Item p = itemOf(parent);
  if (p < -1) return 0;
  return static_cast<int>(children_[static_cast<std::size_t>(p + 1)].size());
}

int DetailTreeModel::columnCount(const QModelIndex&) const {
  return 1;
}

QVariant DetailTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !dissection_) return {};
  const Item item = itemOf(index);
  if (item <= -2) {
    const auto& diag = dissection_->diagnostics[static_cast<std::size_t>(-item - 2)];
    switch (role) {
      case Qt::DisplayRole:
        return tr("[Expert Info (%1): %2]")
            .arg(severityText(diag.severity), QString::fromStdString(diag.message));
      case Qt::ToolTipRole:
        return QString::fromStdString(diag.message);
      case Qt::BackgroundRole:
        switch (diag.severity) {
          case packets::Severity::Error:
            return QBrush(QColor(0xff, 0x5c, 0x5c));
          case packets::Severity::Warning:
            return QBrush(QColor(0xff, 0xe0, 0x66));
          case packets::Severity::Note:
            return QBrush(QColor(0xa0, 0xe0, 0xff));
        }
        return {};
      case ExpertRole:
        return true;
      case KeyRole:
        return QString();
      default:
        return {};
    }
  }
  const auto& node = dissection_->nodes[static_cast<std::size_t>(item)];
  const bool linked = mrLink_ && isRemoteKeyRow(index);
  switch (role) {
    case Qt::DisplayRole:
      if (linked && node.key == "infiniband.reth.r_key")
        return QString::fromStdString(node.label) + QStringLiteral("  ") + mrLink_->text;
      return QString::fromStdString(node.label);
    case Qt::ToolTipRole: {
      if (node.key.empty()) return {};
      const QString key =
          QString::fromUtf8(node.key.data(), static_cast<qsizetype>(node.key.size()));
      QString tip = tr("%1 (%2 byte(s) at %3)").arg(key).arg(node.length).arg(node.offset);
      if (linked) {
        tip += QStringLiteral("\n") + mrLink_->text;
        if (mrLink_->mr >= 0) tip += QStringLiteral("\n") + tr("Double-click to show that MR.");
      }
      const QString term = Glossary::keyForField(key);
      if (!term.isEmpty()) tip += QStringLiteral("\n\n") + Glossary::tooltip(term);
      return tip;
    }
    case Qt::ForegroundRole:
      if (linked && mrLink_->mr >= 0) return QBrush(QColor(0x1f, 0x4e, 0x9a));
      return {};
    case MrLinkRole:
      return linked && mrLink_->mr >= 0;
    case KeyRole:
      return QString::fromUtf8(node.key.data(), static_cast<qsizetype>(node.key.size()));
    case ExpertRole:
      return false;
    default:
      return {};
  }
}

QVariant DetailTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole)
    return tr("Packet details");
  return {};
}

ByteRange DetailTreeModel::byteRange(const QModelIndex& index) const {
  if (!index.isValid() || !dissection_) return {};
  Item item = itemOf(index);
  if (item <= -2) item = parentOf(item);
  if (item < 0) return {};
  const auto& n = dissection_->nodes[static_cast<std::size_t>(item)];
  return {n.offset, n.length};
}

QModelIndex DetailTreeModel::indexOfNode(std::int32_t node) const {
  if (!dissection_ || node < 0 || node >= static_cast<std::int32_t>(dissection_->nodes.size()))
    return {};
  return indexOfItem(node);
}

std::int32_t DetailTreeModel::nodeOf(const QModelIndex& index) const {
  const Item item = itemOf(index);
  return item >= 0 ? item : -1;
}

QModelIndex DetailTreeModel::deepestAt(std::uint32_t byteOffset) const {
  if (!dissection_) return {};
  std::int32_t best = -1;
  const auto& nodes = dissection_->nodes;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const auto& node = nodes[n];
    if (node.length == 0 || byteOffset < node.offset || byteOffset - node.offset >= node.length)
      continue;
    if (best < 0) {
      best = static_cast<std::int32_t>(n);
      continue;
    }
    const auto& b = nodes[static_cast<std::size_t>(best)];
    if (node.depth > b.depth || (node.depth == b.depth && node.length < b.length))
      best = static_cast<std::int32_t>(n);
  }
  return indexOfNode(best);
}

}  // namespace rdmascope::ui
