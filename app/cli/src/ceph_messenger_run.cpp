#include "ceph_messenger_run.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "numeric_options.h"
#include "output_files.h"
#include "output_options.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/sim/ceph_messenger.h"

namespace rdmascope::cli {
namespace {

constexpr ByteSizeRange kMessageSizeRange{1, sim::kCephMaxMessageBytes};

std::string perHost(const sim::CephStackReport& r, auto field) {
  return fmt::format("{} / {}", field(r.hosts[0]), field(r.hosts[1]));
}

void printComparison(const sim::CephMessengerOptions& o, const sim::CephStackReport& rdma,
                     const sim::CephStackReport& tcp, std::ostream& out) {
  out << fmt::format("Ceph async messenger: {} message(s) of {} bytes, client -> OSD{}\n",
                     o.messages, o.messageBytes,
                     o.preRegistered ? " (bufferlists already in registered chunks)" : "");
  out << fmt::format("RDMA stack: {} KiB chunks, {} send / {} receive chunks per host\n",
                     o.bufferSize / 1024, o.sendBuffers, o.receiveBuffers);
  out << fmt::format("{:<34}{:>22}{:>22}\n", "", "async+rdma", "async+posix");
  auto row = [&](std::string_view name, const std::string& a, const std::string& b) {
    out << fmt::format("{:<34}{:>22}{:>22}\n", name, a, b);
  };
  row("frames", std::to_string(rdma.frames.size()), std::to_string(tcp.frames.size()));
  row("  RoCEv2 / TCP", fmt::format("{} / {}", rdma.roceFrames, rdma.tcpFrames),
      fmt::format("{} / {}", tcp.roceFrames, tcp.tcpFrames));
  row("wire bytes", std::to_string(rdma.wireBytes), std::to_string(tcp.wireBytes));
  row("message bytes delivered", std::to_string(rdma.payloadBytes),
      std::to_string(tcp.payloadBytes));
  auto copies = [](const sim::CephHostCounters& c) { return c.copies; };
  auto copyBytes = [](const sim::CephHostCounters& c) { return c.copyBytes; };
  auto syscalls = [](const sim::CephHostCounters& c) { return c.syscalls; };
  auto switches = [](const sim::CephHostCounters& c) { return c.contextSwitches; };
  auto interrupts = [](const sim::CephHostCounters& c) { return c.interrupts; };
  auto doorbells = [](const sim::CephHostCounters& c) { return c.doorbells; };
  auto polls = [](const sim::CephHostCounters& c) { return c.cqPolls; };
  auto cpu = [](const sim::CephHostCounters& c) { return fmt::format("{:.2f}", c.cpuNs / 1000); };
  row("copies (client / OSD)", perHost(rdma, copies), perHost(tcp, copies));
  row("bytes copied (client / OSD)", perHost(rdma, copyBytes), perHost(tcp, copyBytes));
  row("system calls (client / OSD)", perHost(rdma, syscalls), perHost(tcp, syscalls));
  row("context switches (client / OSD)", perHost(rdma, switches), perHost(tcp, switches));
  row("interrupts (client / OSD)", perHost(rdma, interrupts), perHost(tcp, interrupts));
  row("WQEs posted (client / OSD)", perHost(rdma, doorbells), perHost(tcp, doorbells));
  row("CQEs polled (client / OSD)", perHost(rdma, polls), perHost(tcp, polls));
  row("CPU us (client / OSD)", perHost(rdma, cpu), perHost(tcp, cpu));
  row("SEND WRs / ibv_post_send calls", fmt::format("{} / {}", rdma.sendWrs, rdma.postSendCalls),
      "-");
  row("receive chunks reposted", std::to_string(rdma.chunksReposted), "-");
  for (std::size_t i = 0; i < rdma.latencyUs.size(); ++i)
    row(fmt::format("latency of message {} (us)", i + 1), fmt::format("{:.2f}", rdma.latencyUs[i]),
        i < tcp.latencyUs.size() ? fmt::format("{:.2f}", tcp.latencyUs[i]) : "-");
  row("close", rdma.finReceived ? "zero-length SEND" : "not seen", "TCP FIN");
  row("data", rdma.dataIntact ? "intact" : "NOT intact", tcp.dataIntact ? "intact" : "NOT intact");
  out << "QP information over the TCP side channel (lid:qpn:psn:peer_qpn:gid):\n";
  const char* who[3] = {"client", "OSD", "client ack"};
  for (std::size_t i = 0; i < 3; ++i)
    out << fmt::format("  {:<11}{}\n", who[i], rdma.qpInfo[i]);
}

}  // namespace

bool isCephScenario(const std::string& name) {
  return name == "ceph-messenger" || name == "ceph-messenger-tcp";
}

void listCephScenarios(std::ostream& out) {
  out << "ceph-messenger\tCeph's async messenger, client to OSD, over its RDMA stack (QP info "
         "over TCP, SRQ of 128 KiB registered chunks, SENDs) beside its TCP stack (no verbs "
         "trace; --pcap, --trace, --analyze take the RDMA stack; --message-size, --messages, "
         "--registered)\n";
  out << "ceph-messenger-tcp\tThe same messages, with Ceph's POSIX (TCP) stack as the one "
         "--pcap, --trace and --analyze take (no verbs trace)\n";
}

int runCephScenario(const CephRunArgs& a, std::ostream& out, std::ostream& err) {
  sim::CephMessengerOptions o;
  if (a.seed) o.seed = *a.seed;
  if (a.messages) o.messages = *a.messages;
  o.preRegistered = a.registered;
  if (!a.messageSize.empty()) {
    const auto size = parseByteSize(a.messageSize, kMessageSizeRange);
    if (!size) {
      reportError(err, "--message-size: " + notInRange(a.messageSize, kMessageSizeRange.text()));
      return kExitUsage;
    }
    o.messageBytes = *size;
  }
  if (a.analyze && a.traceGiven && a.trace != "none") {
    reportError(err,
                "--trace and --analyze each print a document of their own: run them one at "
                "a time");
    return kExitUsage;
  }
  if (auto bad = sim::validate(o)) {
    reportError(err, *bad);
    return kExitUsage;
  }
  const bool tcpNamed = a.scenario == "ceph-messenger-tcp";
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (!a.pcap.empty()) {
    auto file = createOutput("--pcap", a.pcap, {}, err);
    if (!file) return kExitUsage;
    writer = startCapture(std::move(file), packets::LinkType::Ethernet, err);
    if (!writer) return kExitUsage;
  }
  std::string error;
  const auto rdma = sim::runCephMessenger(sim::CephStack::Rdma, o, error);
  const auto tcp = rdma ? sim::runCephMessenger(sim::CephStack::Posix, o, error) : std::nullopt;
  if (!rdma || !tcp) {
    if (writer) writer->discard();
    reportError(err, error);
    return kExitFailure;
  }
  const sim::CephStackReport& named = tcpNamed ? *tcp : *rdma;
  if (a.analyze) {
    analysis::FlowAnalyzer analyzer;
    const std::int64_t first = named.frames.empty() ? 0 : named.frames.front().timePs / 1000;
    for (std::size_t i = 0; i < named.frames.size(); ++i)
      analyzer.addFrame(named.frames[i].bytes, packets::LinkType::Ethernet, i + 1,
                        static_cast<double>(named.frames[i].timePs / 1000 - first) / 1e9);
    analyzer.finish();
    const analysis::AnalysisReport report = analyzer.report();
    if (a.json) {
      analysis::writeJson(out, report);
      out << '\n';
    } else {
      out << analysis::formatText(report);
    }
  } else if (a.traceGiven && a.trace == "json") {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : named.steps) {
      nlohmann::json j{{"time_ps", s.time.picos()},
                       {"host", s.host == 0 ? "client" : "osd"},
                       {"stack", sim::toString(named.stack)},
                       {"step", sim::toString(s.kind)},
                       {"text", sim::describe(s)}};
      if (s.message) j["message"] = s.message;
      if (s.chunk >= 0) j["chunk"] = s.chunk;
      if (s.chunks) j["chunks"] = s.chunks;
      if (s.bytes) j["bytes"] = s.bytes;
      if (!s.text.empty()) j["qp_info"] = s.text;
      steps.push_back(std::move(j));
    }
    out << steps.dump(1) << '\n';
  } else {
    if (a.traceGiven && a.trace == "text") {
      out << "# " << sim::toString(named.stack) << " steps\n";
      for (const auto& s : named.steps)
        out << fmt::format("{:>14.3f} us  {:<6} {:<19} {}\n", s.time.micros(),
                           s.host == 0 ? "client" : "osd", sim::toString(s.kind), sim::describe(s));
      out << '\n';
    }
    printComparison(o, *rdma, *tcp, out);
  }
  if (writer) {
    for (const auto& f : named.frames)
      if (!writer->write(f.bytes, f.timePs / 1000)) break;
    if (!writer->close()) {
      reportError(err, writer->error());
      return kExitUsage;
    }
  }
  if (!rdma->dataIntact || !tcp->dataIntact) {
    reportError(err, "ceph-messenger: a message arrived with different bytes");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace rdmascope::cli
