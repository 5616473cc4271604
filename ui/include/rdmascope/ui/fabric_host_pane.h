#pragma once
/// @file fabric_host_pane.h
/// One host of a running fabric: the program attached to it (name and pid, or that it left),
/// a Step call button, and its NIC as the program left it: QPs (type, state, PSNs), the send
/// and receive WQEs of the selected QP, MRs (keys and access), CQs and PDs. A host whose
/// program detached keeps its last state, greyed, until another program attaches.

#include <QWidget>
#include <cstdint>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace rdmascope::ui {

class FabricHostModel;
struct FabricHostView;

class FabricHostPane : public QWidget {
  Q_OBJECT
 public:
  explicit FabricHostPane(int host, QWidget* parent = nullptr);

  int host() const { return host_; }
  /// Shows the host (it must outlive the pane or be replaced first).
  void setHost(const FabricHostView& view);
  /// Enables Step call (the fabric is paused and the program attached).
  void setStepEnabled(bool on);

  QLabel* titleLabel() const { return title_; }
  QPushButton* stepCallButton() const { return step_; }
  QTableView* qpTable() const { return qpTable_; }
  FabricHostModel* qpModel() const { return qps_; }
  FabricHostModel* sendQueueModel() const { return sq_; }
  FabricHostModel* recvQueueModel() const { return rq_; }
  FabricHostModel* mrModel() const { return mrs_; }
  FabricHostModel* cqModel() const { return cqs_; }
  FabricHostModel* pdModel() const { return pds_; }
  QTabWidget* tabs() const { return tabs_; }

 Q_SIGNALS:
  /// The user asked to let this host's program make one verbs call.
  void stepCallRequested(int host);

 private:
  void selectQp(std::uint32_t qpn);

  int host_;
  bool attached_ = false;
  bool stepEnabled_ = false;
  QLabel* title_;
  QPushButton* step_;
  QTableView* qpTable_;
  QTabWidget* tabs_;
  QLabel* queueLabel_;
  FabricHostModel* qps_;
  FabricHostModel* sq_;
  FabricHostModel* rq_;
  FabricHostModel* mrs_;
  FabricHostModel* cqs_;
  FabricHostModel* pds_;
};

}  // namespace rdmascope::ui
