#include "rdmascope/ui/fabric_topology_model.h"

#include <algorithm>
#include <deque>
#include <map>

#include "rdmascope/ui/congestion_run.h"

namespace rdmascope::ui {

FabricTopologyModel::FabricTopologyModel(const CongestionRun* run, QObject* parent)
    : QAbstractTableModel(parent), run_(run) {}

int FabricTopologyModel::nodeIndex(const QString& name) const {
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].name == name) return static_cast<int>(i);
  return -1;
}

void FabricTopologyModel::reset() {
  beginResetModel();
  nodes_.clear();
  links_.clear();
  if (run_ && run_->loaded()) {
    for (const auto& n : run_->spec().nodes)
      nodes_.push_back(Node{QString::fromStdString(n.name), n.isSwitch, 0, {}});
    // ports() lists two ports per link, in the scenario's link order
    const auto& ports = run_->ports();
    for (std::size_t i = 0; i + 1 < ports.size(); i += 2) {
      Link l;
      l.a = nodeIndex(QString::fromStdString(ports[i].node));
      l.b = nodeIndex(QString::fromStdString(ports[i + 1].node));
      l.portA = static_cast<int>(i);
      l.portB = static_cast<int>(i + 1);
      l.gbps = ports[i].gbps;
      links_.push_back(l);
    }
    // levels: the distance from the nearest host
    std::vector<std::vector<int>> adj(nodes_.size());
    for (const auto& l : links_) {
      adj[static_cast<std::size_t>(l.a)].push_back(l.b);
      adj[static_cast<std::size_t>(l.b)].push_back(l.a);
    }
    std::vector<int> level(nodes_.size(), -1);
    std::deque<int> todo;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (!nodes_[i].isSwitch) {
        level[i] = 0;
        todo.push_back(static_cast<int>(i));
      }
    while (!todo.empty()) {
      const int n = todo.front();
      todo.pop_front();
      for (int m : adj[static_cast<std::size_t>(n)])
        if (level[static_cast<std::size_t>(m)] < 0) {
          level[static_cast<std::size_t>(m)] = level[static_cast<std::size_t>(n)] + 1;
          todo.push_back(m);
        }
    }
    int top = 1;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      nodes_[i].level = std::max(level[i], nodes_[i].isSwitch ? 1 : 0);
      top = std::max(top, nodes_[i].level);
    }
    // order within a level: switches as listed; hosts grouped under their switch
    std::map<int, std::vector<int>> rows;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (nodes_[i].isSwitch) rows[nodes_[i].level].push_back(static_cast<int>(i));
    std::vector<int> hosts;
    for (int sw : rows[1])
      for (int m : adj[static_cast<std::size_t>(sw)])
        if (!nodes_[static_cast<std::size_t>(m)].isSwitch &&
            std::find(hosts.begin(), hosts.end(), m) == hosts.end())
          hosts.push_back(m);
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (!nodes_[i].isSwitch && std::find(hosts.begin(), hosts.end(), i) == hosts.end())
        hosts.push_back(static_cast<int>(i));
    rows[0] = hosts;
    for (auto& [lvl, members] : rows) {
      const double y = top == 0 ? 0.5 : 1.0 - static_cast<double>(lvl) / top;
      for (std::size_t k = 0; k < members.size(); ++k) {
        Node& n = nodes_[static_cast<std::size_t>(members[k])];
        n.where = QPointF((static_cast<double>(k) + 0.5) / static_cast<double>(members.size()), y);
      }
    }
    // a switch with hosts sits above the middle of its hosts
    for (int sw : rows[1]) {
      double sum = 0;
      int count = 0;
      for (int m : adj[static_cast<std::size_t>(sw)])
        if (!nodes_[static_cast<std::size_t>(m)].isSwitch) {
          sum += nodes_[static_cast<std::size_t>(m)].where.x();
          ++count;
        }
      if (count > 0 && rows[1].size() > 1)
        nodes_[static_cast<std::size_t>(sw)].where.setX(sum / count);
    }
  }
  endResetModel();
}

void FabricTopologyModel::refresh() {
  if (links_.empty()) return;
  Q_EMIT dataChanged(index(0, LoadAB), index(rowCount() - 1, Paused));
}

double FabricTopologyModel::load(int port) const {
  if (!run_ || !run_->loaded()) return 0;
  const int s = run_->sampleIndex();
  const auto& tx = run_->series().portTxBytes;
  if (s < 0 || port < 0 || static_cast<std::size_t>(port) >= tx.size() ||
      static_cast<std::size_t>(s) >= tx[static_cast<std::size_t>(port)].size())
    return 0;
  const double bits =
      static_cast<double>(tx[static_cast<std::size_t>(port)][static_cast<std::size_t>(s)]) * 8.0;
  const double capacity =
      run_->ports()[static_cast<std::size_t>(port)].gbps * 1e9 * run_->slice().seconds();
  return capacity > 0 ? std::min(1.0, bits / capacity) : 0;
}

unsigned FabricTopologyModel::pausedPriorities(int port) const {
  if (!run_ || !run_->loaded() || port < 0) return 0;
  const std::string& name = run_->ports()[static_cast<std::size_t>(port)].name;
  unsigned bits = 0;
  for (int p = 0; p < 8; ++p)
    if (run_->pausedNow(name, p)) bits |= 1u << p;
  return bits;
}

int FabricTopologyModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(links_.size());
}

int FabricTopologyModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant FabricTopologyModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || role != Qt::DisplayRole) return {};
  const Link& l = links_[static_cast<std::size_t>(index.row())];
  const auto pausedText = [this](int port) {
    QStringList p;
    const unsigned bits = pausedPriorities(port);
    for (int i = 0; i < 8; ++i)
      if (bits & (1u << i)) p << QString::number(i);
    return p.join(QLatin1Char(','));
  };
  switch (index.column()) {
    case A:
      return QString::fromStdString(run_->ports()[static_cast<std::size_t>(l.portA)].name);
    case B:
      return QString::fromStdString(run_->ports()[static_cast<std::size_t>(l.portB)].name);
    case Speed:
      return l.gbps;
    case LoadAB:
      return load(l.portA);
    case LoadBA:
      return load(l.portB);
    case Paused: {
      const QString ab = pausedText(l.portA), ba = pausedText(l.portB);
      if (ab.isEmpty() && ba.isEmpty()) return QString();
      return tr("A->B: %1  B->A: %2").arg(ab.isEmpty() ? tr("-") : ab, ba.isEmpty() ? tr("-") : ba);
    }
    default:
      return {};
  }
}

QVariant FabricTopologyModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case A:
      return tr("End A");
    case B:
      return tr("End B");
    case Speed:
      return tr("Gb/s");
    case LoadAB:
      return tr("Load A->B");
    case LoadBA:
      return tr("Load B->A");
    case Paused:
      return tr("Paused priorities");
    default:
      return {};
  }
}

}  // namespace rdmascope::ui
