#pragma once
/// @file fabric_models.h
/// Table models over what a FabricSession holds: one attached program's NIC state (its PDs,
/// MRs with keys and access, QPs, the send or receive WQEs of one QP, CQs) and the fabric's
/// timeline of verbs calls, log lines and frames. They point into the session (never copy it).

#include <QAbstractTableModel>
#include <QString>
#include <cstdint>

#include "rdmascope/simdev/host_state.h"

namespace rdmascope::ui {

class FabricSession;
class FrameStore;

/// An MR's access flags by their verbs names ("LOCAL_WRITE | REMOTE_WRITE"; "none" for 0).
QString accessFlagNames(unsigned access);
/// The same as ibv_access_flags spells them ("IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE").
QString ibvAccessNames(unsigned access);

/// One line for a frame of the fabric: number, destination host, opcode, PSN, QP, payload,
/// NAKs, and whether the paused switch holds it.
QString describeFabricFrame(const FabricSession& session, const FrameStore& store,
                            std::size_t frame);

/// What a FabricHostModel lists.
enum class FabricTable { Pds, Mrs, Qps, SendQueue, RecvQueue, Cqs };

class FabricHostModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  explicit FabricHostModel(FabricTable table, QObject* parent = nullptr);

  /// Shows a host's state (null: nothing); `detached` greys it (its program left).
  void setState(const simdev::HostState* state, bool detached);
  /// SendQueue and RecvQueue: the QP whose WQEs are listed (0: the first QP).
  void setQp(std::uint32_t qpn);
  std::uint32_t qp() const { return qpn_; }
  FabricTable table() const { return table_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const std::vector<sim::WqeView>* queue() const;

  FabricTable table_;
  const simdev::HostState* state_ = nullptr;
  bool detached_ = false;
  std::uint32_t qpn_ = 0;
};

/// The fabric's timeline: one row per verbs call, log line, frame, attach and detach, in the
/// order the fabric reported them; frames held at the paused switch are marked.
class FabricTimelineModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Time, Host, Kind, What, ColumnCount };
  /// Role returning a row's 0-based frame index (qlonglong; -1 for rows that are not frames).
  static constexpr int FrameRole = Qt::UserRole + 1;

  FabricTimelineModel(const FabricSession* session, const FrameStore* store,
                      QObject* parent = nullptr);

  /// The row of a frame, or -1.
  int rowOfFrame(std::size_t frame) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const FabricSession* session_;
  const FrameStore* store_;
  std::size_t rows_ = 0;
};

}  // namespace rdmascope::ui
