#include "rdmascope/ui/transfer_follower.h"

#include "rdmascope/ui/comparison_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {

namespace {

bool namesWqe(sim::TraceKind k) {
  return k == sim::TraceKind::WqePosted || k == sim::TraceKind::WqeStarted ||
         k == sim::TraceKind::WqePacket || k == sim::TraceKind::WqeCompleted ||
         k == sim::TraceKind::CqeProduced;
}

}  // namespace

sim::RdmaOp rdmaOpOf(sim::WrOpcode opcode) {
  switch (opcode) {
    case sim::WrOpcode::RdmaWrite:
    case sim::WrOpcode::RdmaWriteWithImm:
      return sim::RdmaOp::Write;
    case sim::WrOpcode::RdmaRead:
      return sim::RdmaOp::Read;
    default:
      return sim::RdmaOp::Send;
  }
}

std::optional<CurrentTransfer> currentTransfer(const ScenarioRecording& rec, int event) {
  for (int i = std::min<int>(event, static_cast<int>(rec.events.size()) - 1); i >= 0; --i) {
    const ScenarioEvent& e = rec.events[static_cast<std::size_t>(i)];
    if (e.host < 0 || !namesWqe(e.trace.kind) || e.snapshot >= rec.snapshots.size()) continue;
    const HostSnapshot& h = rec.snapshots[e.snapshot].hosts[static_cast<std::size_t>(e.host)];
    for (const sim::QpView& qp : h.qps) {
      if (qp.qpn != e.trace.qpn) continue;
      for (const sim::WqeView& w : qp.sq)
        if (w.wrId == e.trace.wrId)
          return CurrentTransfer{w.length, e.host, qp.qpn, w.wrId, w.opcode, i};
    }
  }
  return std::nullopt;
}

TransferFollower::TransferFollower(ScenarioController* scenario, ComparisonView* comparison,
                                   LayerStacksView* stacks, QObject* parent)
    : QObject(parent), scenario_(scenario), comparison_(comparison), stacks_(stacks) {
  connect(scenario_, &ScenarioController::currentChanged, this, &TransferFollower::follow);
}

void TransferFollower::follow(int event) {
  const ScenarioRecording* rec = scenario_->recording();
  transfer_ = rec ? currentTransfer(*rec, event) : std::nullopt;
  if (!transfer_) {
    caption_ = tr("No transfer yet: step to a work request to compare at its size.");
    comparison_->setCaption(caption_);
    stacks_->setTcpPath({});
    tcpPath_ = {};
    return;
  }
  const CurrentTransfer& t = *transfer_;
  // A zero-byte message still moves one (headers only); the models need at least one byte.
  const std::uint64_t bytes = std::max<std::uint64_t>(1, t.bytes);
  auto it = cache_.find(bytes);
  if (it == cache_.end()) it = cache_.emplace(bytes, runTcpDataPath(bytes)).first;
  if (stacks_->tcpPathBytes() != bytes) stacks_->setTcpPath(it->second);
  tcpPath_ = it->second;
  comparison_->setTransferSize(bytes);
  comparison_->model()->setRdmaOp(rdmaOpOf(t.opcode));
  const QString host = QString::fromStdString(rec->hostNames[static_cast<std::size_t>(t.host)]);
  const auto op = sim::toString(t.opcode);
  caption_ = tr("Showing %1's %2 wr_id %3: %4 bytes (event %5)")
                 .arg(host, QString::fromUtf8(op.data(), static_cast<qsizetype>(op.size())))
                 .arg(t.wrId)
                 .arg(t.bytes)
                 .arg(t.event + 1);
  if (const auto simulated = simulatedLatencyUs(*rec, t); simulated && !rec->events.empty())
    caption_ +=
        QStringLiteral(". ") + simulatedVersusModel(*simulated, comparison_->model()->estimate(1));
  comparison_->setCaption(caption_);
  // The TCP path moves along with the scenario's RDMA path.
  const Stack rdma = stacks_->activeStack();
  const int step = rdma == Stack::TcpIp ? -1 : stacks_->pathStep(rdma);
  stacks_->setPathStep(Stack::TcpIp, tcpStepForRdmaStep(tcpPath_, step), false);
}

std::optional<double> simulatedLatencyUs(const ScenarioRecording& recording,
                                         const CurrentTransfer& transfer) {
  if (transfer.event < 0 || static_cast<std::size_t>(transfer.event) >= recording.events.size())
    return std::nullopt;
  const ScenarioEvent& posted = recording.events[static_cast<std::size_t>(transfer.event)];
  for (std::size_t i = static_cast<std::size_t>(transfer.event); i < recording.events.size(); ++i) {
    const ScenarioEvent& e = recording.events[i];
    if (e.host == transfer.host && e.trace.kind == sim::TraceKind::CqeProduced &&
        e.trace.wrId == transfer.wrId)
      return e.trace.time.micros() - posted.trace.time.micros();
  }
  return std::nullopt;
}

QString simulatedVersusModel(double simulatedUs, const sim::TransferEstimate& model) {
  double hostNs = 0;
  for (const sim::Stage& st : model.stages)
    if (st.worker == sim::Worker::Cpu || st.worker == sim::Worker::Dma) hostNs += st.firstNs;
  return TransferFollower::tr(
             "simulated run: %1 us to completion; model: %2 us, which adds %3 us of CPU and "
             "PCIe DMA time the simulated NIC leaves out")
      .arg(simulatedUs, 0, 'f', 3)
      .arg(model.latencyNs / 1e3, 0, 'f', 2)
      .arg(hostNs / 1e3, 0, 'f', 2);
}

}  // namespace rdmascope::ui
