#pragma once
/// @file ceph_messenger_models.h
/// Qt models over a Ceph messenger run (sim/ceph_messenger.h): the figures of both network
/// stacks side by side, and the steps of one stack as a table. The models copy the reports they
/// show; the sentences come from stepText(), translatable.

#include <QAbstractTableModel>
#include <QString>
#include <optional>

#include "rdmascope/sim/ceph_messenger.h"

namespace rdmascope::ui {

/// One sentence saying what a messenger step did (tr()).
QString stepText(const sim::CephStep& step);

/// Rows: a figure each (frames, bytes, copies, system calls, CPU, latency per message, ...);
/// columns: the figure's name, async+rdma, async+posix. Qt::DisplayRole gives the text,
/// ValueRole the number (counts, bytes, nanoseconds of CPU, microseconds of latency).
class CephComparisonModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column : int { Name, Rdma, Posix, ColumnCount };
  static constexpr int ValueRole = Qt::UserRole + 1;

  explicit CephComparisonModel(QObject* parent = nullptr);

  void setReports(const sim::CephStackReport& rdma, const sim::CephStackReport& posix);
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  /// The row of a figure by its name as shown (-1 when none).
  int rowNamed(const QString& name) const;

 private:
  struct Row {
    QString name;
    QString text[2];
    double value[2] = {0, 0};
    bool hasValue[2] = {false, false};
  };
  std::vector<Row> rows_;
};

/// The steps of one stack: time (us), host, step, what happened. Qt::ToolTipRole on the text
/// column gives the QP information message where there is one.
class CephStepsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column : int { Time, Host, Step, Text, ColumnCount };

  explicit CephStepsModel(QObject* parent = nullptr);

  void setSteps(std::vector<sim::CephStep> steps);
  const std::vector<sim::CephStep>& steps() const { return steps_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<sim::CephStep> steps_;
};

}  // namespace rdmascope::ui
