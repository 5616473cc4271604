#pragma once
/// @file ceph_recording.h
/// Records Ceph's async messenger (sim/ceph_messenger.h, as `rdmascope-cli sim ceph-messenger`
/// and `ceph-messenger-tcp` run it with their defaults) as a steppable ScenarioRecording: every
/// step of the messenger (the QP information on the TCP side channel, the SRQ's chunks, copies
/// into and out of registered chunks, SENDs, completions, reposts, the zero-length close; on
/// the POSIX stack send(), recv() and the socket copies) is an event with its typed step, every
/// frame (RoCEv2 and TCP) is a frame event in the FrameStore, and the NIC's placement of each
/// SEND's payload into the receiver's chunk is a DMA write event. Each event keeps both hosts'
/// chunk pools, SRQ and counters (transport_host_state.h's CephHostState). Qt-free.

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

/// ceph-messenger (the RDMA stack) and ceph-messenger-tcp (the POSIX stack).
const std::vector<ScenarioInfo>& cephScenarios();

/// True for ceph-messenger and ceph-messenger-tcp.
bool isCephScenario(const std::string& id);

/// Runs one of cephScenarios() with the CLI's defaults (3 messages of 300 KiB, seed 1) and
/// records it; `frames` is cleared first (Ethernet). False with `error` for another id or a run
/// that failed.
bool recordCephScenario(const std::string& id, ScenarioRecording& out, FrameStore& frames,
                        std::string& error);

/// The state a messenger step leaves its host in, given the state before it, with the CPU
/// time of the step from the host cost model.
void applyCephStep(const sim::CephStep& step, const sim::HostCostSettings& costs,
                   CephHostState& state);

/// The CPU time one step costs its host (the host cost model's copy rate, system call, doorbell
/// and poll costs); 0 for what the NIC or the peer does.
double cephStepCpuNs(const sim::CephStep& step, const sim::HostCostSettings& costs);

/// The payload bytes of an RC SEND packet in an Ethernet frame (RoCEv2 over IPv4), 0 for any
/// other frame.
std::uint32_t cephSendPayload(const std::vector<std::uint8_t>& frame);

}  // namespace rdmascope::ui
