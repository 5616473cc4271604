#pragma once
/// @file fabric_topology_model.h
/// The hosts, switches and links of a congestion run (congestion_run.h) as a table: one row per
/// link with its two ends, its speed and, at the run's cursor, the load each way (bytes sent in
/// the cursor's sample period over what the link carries) and the priorities paused each way.
/// The nodes come with a layered layout for the fabric view: spines above leaves above hosts
/// (the distance from the nearest host), each host under its switch.

#include <QAbstractTableModel>
#include <QPointF>
#include <QString>
#include <vector>

namespace rdmascope::ui {

class CongestionRun;

class FabricTopologyModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { A, B, Speed, LoadAB, LoadBA, Paused, ColumnCount };

  struct Node {
    QString name;
    bool isSwitch = false;
    int level = 0;  ///< 0 hosts, 1 switches with hosts, 2 the switches above them, ...
    QPointF where;  ///< layout position, both coordinates in [0, 1] (y 0 at the top)
  };
  struct Link {
    int a = 0, b = 0;          ///< node indices
    int portA = 0, portB = 0;  ///< indices into the run's ports(): a's end and b's end
    double gbps = 0;
  };

  explicit FabricTopologyModel(const CongestionRun* run, QObject* parent = nullptr);

  /// Rebuilds the nodes and links from the run (after it loaded).
  void reset();
  /// The loads and pauses changed (the cursor moved).
  void refresh();

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  int nodeIndex(const QString& name) const;
  /// The load of a port's sending direction at the cursor, 0..1 (0 before the first sample).
  double load(int port) const;
  /// The priorities of a port that are paused at the cursor (bit p for priority p).
  unsigned pausedPriorities(int port) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  const CongestionRun* run_;
  std::vector<Node> nodes_;
  std::vector<Link> links_;
};

}  // namespace rdmascope::ui
