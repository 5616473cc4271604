#pragma once
/// @file transfer_follower.h
/// Keeps the comparison and the TCP data path on the transfer of the scenario's current event:
/// the send WQE the event belongs to (or the last one before it), its byte count fed to the
/// comparison, the TCP path modelled for that size by the simulator's TCP model, and the TCP
/// path stepped along with the RDMA path.

#include <QObject>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>

#include "rdmascope/sim/transfer_cost.h"
#include "rdmascope/ui/scenario_player.h"
#include "rdmascope/ui/tcp_data_path.h"

namespace rdmascope::ui {

class ComparisonView;
class LayerStacksView;
class ScenarioController;

/// A send WQE of a recording: the transfer an event belongs to.
struct CurrentTransfer {
  std::uint64_t bytes = 0;
  int host = 0;
  std::uint32_t qpn = 0;
  std::uint64_t wrId = 0;
  sim::WrOpcode opcode = sim::WrOpcode::Send;
  int event = -1;  ///< the event that names the WQE
};

/// The operation the comparison models a work request with (atomics and sends: Send).
sim::RdmaOp rdmaOpOf(sim::WrOpcode opcode);

/// The send WQE of `event`, or of the last WQE event before it; nullopt before any.
std::optional<CurrentTransfer> currentTransfer(const ScenarioRecording& recording, int event);

/// Microseconds from the transfer's post to its completion entry on the posting host in the
/// simulated run (nullopt when it never completed).
std::optional<double> simulatedLatencyUs(const ScenarioRecording& recording,
                                         const CurrentTransfer& transfer);

/// Sets the simulated run beside the cost model: the run's post-to-completion time, the
/// model's latency for the same operation and size, and the CPU and PCIe DMA time on the
/// model's first-packet path that the simulator's NIC model leaves out.
QString simulatedVersusModel(double simulatedUs, const sim::TransferEstimate& model);

class TransferFollower : public QObject {
  Q_OBJECT
 public:
  TransferFollower(ScenarioController* scenario, ComparisonView* comparison,
                   LayerStacksView* stacks, QObject* parent = nullptr);

  /// The transfer shown (nullopt: none yet, the comparison keeps its size).
  const std::optional<CurrentTransfer>& transfer() const { return transfer_; }
  /// The sentence the comparison shows about it.
  QString caption() const { return caption_; }
  /// The TCP path modelled for the transfer's size (steps empty before any transfer).
  const TcpDataPath& tcpPath() const { return tcpPath_; }

 private:
  void follow(int event);

  ScenarioController* scenario_;
  ComparisonView* comparison_;
  LayerStacksView* stacks_;
  std::optional<CurrentTransfer> transfer_;
  QString caption_;
  TcpDataPath tcpPath_;
  std::map<std::uint64_t, TcpDataPath> cache_;
};

}  // namespace rdmascope::ui
