// One side of the lab's real-verbs test: RC SEND with immediate (multi-packet), inline SEND,
// RDMA WRITE, RDMA WRITE with immediate, RDMA READ, FETCH_ADD and CMP_SWAP, a UD SEND with
// immediate, and a WRITE past the peer's MR (remote access error) between two Soft-RoCE
// guests. Every operation is a scenario step run by the scenario engine (a HostExecutor on an
// IbvBackend, the peer over the out-of-band TCP link), as rdmascope-cli verbs runs them; this
// program adds the data of each round and the checks. Each check prints one line
// "CHECK <name> ok|FAIL <detail>"; the last line is "RESULT PASS" or "RESULT FAIL" and the exit
// status says the same. Usage: rdmascope_lab_verbs --server | --connect HOST [--port P]
// [--rounds N] [--busy-poll] [--device NAME]. Each round repeats the operations with fresh data.
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "rdmascope/sim/verbs_types.h"
#include "rdmascope/verbs_backend/ibv_backend.h"
#include "rdmascope/verbs_backend/scenario_executor.h"
#include "rdmascope/verbs_backend/scenario_file.h"

namespace {

using namespace rdmascope;
using namespace rdmascope::verbs_backend;
using namespace std::chrono_literals;
using nlohmann::json;

constexpr std::uint64_t kMrSize = 64 * 1024;
// Offsets inside each side's MR.
constexpr std::uint64_t kRecvArea = 0;        // SEND targets (server), 3 slots of 8 KiB
constexpr std::uint64_t kWriteArea = 24576;   // RDMA WRITE target (server) / source (client)
constexpr std::uint64_t kReadArea = 32768;    // RDMA READ source (server) / target (client)
constexpr std::uint64_t kAtomicArea = 40960;  // counter (server) / fetched values (client)
constexpr std::uint64_t kSendArea = 49152;    // SEND source (client)
constexpr std::uint32_t kSendLen = 5000;      // 5 packets at MTU 1024
constexpr std::uint32_t kWriteLen = 3000;
constexpr std::uint32_t kWriteImmLen = 100;
constexpr std::uint32_t kReadLen = 4096;
constexpr std::uint32_t kInlineLen = 32;
constexpr std::uint32_t kImm = 0x12345678;
constexpr std::uint32_t kWriteImm = 0xcafe0001;
constexpr std::uint64_t kCounterStart = 100;
constexpr std::uint64_t kUdArea = 57344;  // UD send source (client) / GRH + receive (server)
constexpr std::uint32_t kGrhLen = 40;
constexpr std::uint32_t kUdLen = 1024;
constexpr std::uint32_t kUdImm = 0x0d0d0d0d;
constexpr std::uint32_t kQkey = 0x11111111;
constexpr int kPollMs = 20000;

int failures = 0;

void check(bool good, const std::string& name, const std::string& detail = {}) {
  std::printf("CHECK %s %s%s%s\n", name.c_str(), good ? "ok" : "FAIL", detail.empty() ? "" : " ",
              detail.c_str());
  std::fflush(stdout);
  if (!good) ++failures;
}

[[noreturn]] void fatal(const std::string& what, const std::string& why) {
  std::printf("CHECK %s FAIL %s\nRESULT FAIL\n", what.c_str(), why.c_str());
  std::exit(1);
}

template <class T>
T need(Result<T> r, const char* what) {
  if (!r.ok()) fatal(what, r.status.message);
  return std::move(r.value);
}

std::uint8_t pattern(std::uint32_t seed, std::uint64_t i) {
  return static_cast<std::uint8_t>((i * 131 + seed * 7 + (i >> 8)) & 0xff);
}

json sge(std::uint64_t offset, std::uint32_t length) {
  return json::array({{{"mr", "mem"}, {"offset", offset}, {"length", length}}});
}

// The two hosts of the program: one RC and one UD QP each, one MR, two CQs.
json hostsJson(std::uint32_t psn) {
  json hosts = json::array();
  for (const char* name : {"server", "client"})
    hosts.push_back(
        {{"name", name},
         {"mrs",
          {{{"name", "mem"},
            {"size", kMrSize},
            {"access", {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC"}}}}},
         {"cqs", {{{"name", "cq"}, {"depth", 128}}, {{"name", "udcq"}, {"depth", 16}}}},
         {"qps",
          {{{"name", "rc"}, {"type", "RC"}, {"send_cq", "cq"}, {"recv_cq", "cq"}, {"psn", psn}},
           {{"name", "ud"},
            {"type", "UD"},
            {"send_cq", "udcq"},
            {"recv_cq", "udcq"},
            {"psn", psn}}}}});
  return hosts;
}

// This side's host of the scenario, and each step parsed against it and run by the executor.
class Side {
 public:
  Side(int side, std::uint32_t psn)
      : side_(side),
        base_({{"name", "lab-verbs"}, {"hosts", hostsJson(psn)}, {"steps", json::array()}}),
        scenario_(parseScenario(base_, "lab_verbs_peer")) {}
  const Scenario& scenario() const { return scenario_; }
  int side() const { return side_; }

  /// Runs one step (JSON as in a scenario file); the exchange runs on both sides.
  StepOutcome run(HostExecutor& ex, json step) {
    if (!step.contains("exchange")) step["host"] = side_;
    json full = base_;
    full["steps"] = json::array({step});
    const Scenario one = parseScenario(full, "lab_verbs_peer");
    return ex.run(one.steps.front(), index_++);
  }

 private:
  int side_;
  json base_;
  Scenario scenario_;
  std::size_t index_ = 0;
};

std::string describe(const StepOutcome& o) {
  return o.message;
}

}  // namespace

int main(int argc, char** argv) {
  bool server = false;
  std::string host;
  std::uint16_t port = 18600;
  int rounds = 1;
  IbvOptions options;
  options.deviceName = "rxe0";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--server") {
      server = true;
    } else if (a == "--connect" && i + 1 < argc) {
      host = argv[++i];
    } else if (a == "--port" && i + 1 < argc) {
      port = static_cast<std::uint16_t>(std::stoi(argv[++i]));
    } else if (a == "--rounds" && i + 1 < argc) {
      rounds = std::stoi(argv[++i]);
    } else if (a == "--busy-poll") {
      options.waitMode = WaitMode::BusyPoll;
    } else if (a == "--device" && i + 1 < argc) {
      options.deviceName = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s --server | --connect HOST [--port P] [--device NAME]\n",
                   argv[0]);
      return 2;
    }
  }
  if (rounds < 1 || rounds > 20) {
    std::fprintf(stderr, "%s: --rounds must be 1..20\n", argv[0]);
    return 2;
  }
  if (server == !host.empty()) {
    std::fprintf(stderr, "%s: give exactly one of --server and --connect HOST\n", argv[0]);
    return 2;
  }

  auto backend = need(IbvBackend::open(options), "open");
  std::mt19937 rng(std::random_device{}());
  const std::uint32_t psn = rng() & 0xffffff;
  Side me(server ? 0 : 1, psn);

  OobConnection conn;
  if (server) {
    auto listener = need(OobListener::listen(port), "oob_listen");
    conn = need(listener.accept(60s), "oob_accept");
  } else {
    conn = need(OobConnection::connect(host, port, 60s), "oob_connect");
  }
  OobPeerLink link(conn, 60s);
  HostExecutor ex(me.scenario(), me.side(), *backend, link);
  if (std::string e = ex.setup(); !e.empty()) fatal("setup", e);
  auto step = [&](json s) { return me.run(ex, std::move(s)); };
  auto must = [&](json s, const char* what) {
    StepOutcome o = step(std::move(s));
    if (!o.ok) fatal(what, o.message);
    return o;
  };
  // A poll of one completion: the outcome, or the end when none came.
  auto poll = [&](const char* cq, json expect, const char* what) {
    StepOutcome o = step(
        {{"poll_cq", {{"cq", cq}, {"count", 1}, {"timeout_ms", kPollMs}, {"expect", {expect}}}}});
    if (o.completions.empty()) fatal(what, o.message);
    return o;
  };
  auto barrier = [&](const std::string& name) {
    if (Status st = link.barrier(name, name); !st.ok()) fatal("barrier_" + name, st.message);
  };

  const DeviceInfo& dev = ex.device();
  check(dev.transport == "RoCEv2", "device_transport", dev.name + " " + dev.transport);
  check(dev.gid[10] == 0xff && dev.gid[11] == 0xff, "device_gid_ipv4_mapped");
  const sim::Mtu mtu = dev.activeMtu;
  check(mtu == sim::Mtu::Mtu1024, "device_active_mtu", std::to_string(sim::mtuBytes(mtu)));
  const MemoryRegion mr = *ex.mr("mem");
  const auto mem = need(ex.range("mem", 0, kMrSize), "mr_memory");
  check(mem.size() == kMrSize && reinterpret_cast<std::uintptr_t>(mem.data()) == mr.addr,
        "mr_memory");
  auto fill = [&](std::uint64_t off, std::uint32_t len, std::uint32_t seed) {
    for (std::uint32_t i = 0; i < len; ++i)
      mem[off + i] = pattern(seed, i);
  };
  auto matches = [&](std::uint64_t off, std::uint32_t len, std::uint32_t seed) {
    for (std::uint32_t i = 0; i < len; ++i)
      if (mem[off + i] != pattern(seed, i)) return false;
    return true;
  };
  auto load64 = [&](std::uint64_t off) {
    std::uint64_t v;
    std::memcpy(&v, mem.data() + off, 8);
    return v;
  };

  // rc_pingpong's connection: INIT, the exchange over TCP, RTR with the peer's values, RTS.
  must({{"modify_qp",
         {{"qp", "rc"},
          {"state", "INIT"},
          {"pkey_index", 0},
          {"port", dev.port},
          {"access", {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC"}}}}},
       "modify_qp_init");
  must({{"exchange", {{"from", 0}, {"qp", "rc"}, {"mr", "mem"}}}}, "oob_exchange");
  must({{"exchange", {{"from", 1}, {"qp", "rc"}, {"mr", "mem"}}}}, "oob_exchange");
  const PeerInfo peer = *ex.peer();
  std::printf(
      "local  qpn 0x%06x psn 0x%06x\nremote qpn 0x%06x psn 0x%06x rkey 0x%08x addr 0x%llx\n",
      ex.qp("rc")->qpNum, psn, peer.qpn, peer.psn, peer.rkey,
      static_cast<unsigned long long>(peer.addr));
  must({{"modify_qp",
         {{"qp", "rc"},
          {"state", "RTR"},
          {"path_mtu", sim::mtuBytes(mtu)},
          {"dest_qpn", "peer"},
          {"rq_psn", "peer"},
          {"av", {{"dgid", "peer"}, {"dlid", "peer"}, {"hop_limit", 64}}},
          {"max_dest_rd_atomic", 1},
          {"min_rnr_timer", 12}}}},
       "connect_qp");
  must({{"modify_qp",
         {{"qp", "rc"},
          {"state", "RTS"},
          {"sq_psn", "own"},
          {"timeout", 14},
          {"retry_cnt", 7},
          {"rnr_retry", 7},
          {"max_rd_atomic", 1}}}},
       "connect_qp");
  const QpAttr q = need(backend->queryQp(ex.qp("rc")->handle), "query_qp");
  check(q.qpState == sim::QpState::Rts, "query_qp_state", std::string(sim::toString(q.qpState)));
  check(q.destQpNum == peer.qpn && q.sqPsn == psn && q.rqPsn == peer.psn, "query_qp_numbers");
  check(q.pathMtu == mtu && q.ahAttr.dgid == peer.gid, "query_qp_path");
  barrier("ready");

  for (int round = 0; round < rounds; ++round) {
    // Appended piecewise: GCC 12 -O3 warns falsely (-Wrestrict) on "r" + std::string.
    std::string tag = std::to_string(round);
    tag.insert(tag.begin(), 'r');
    tag.push_back('.');
    auto ck = [&](bool good, const char* name, const std::string& detail = {}) {
      check(good, tag + name, detail);
    };
    const std::uint32_t seed = 10u * static_cast<std::uint32_t>(round);
    const std::uint32_t r32 = static_cast<std::uint32_t>(round);
    if (server) {
      std::memset(mem.data(), 0, kSendArea);
      fill(kReadArea, kReadLen, seed + 3);
      std::uint64_t start = kCounterStart;
      std::memcpy(mem.data() + kAtomicArea, &start, 8);
      for (std::uint64_t slot = 0; slot < 3; ++slot)
        must({{"post_recv",
               {{"qp", "rc"}, {"wr_id", 100 + slot}, {"sge", sge(kRecvArea + slot * 8192, 8192)}}}},
             "post_recv");
    } else {
      std::memset(mem.data(), 0, kMrSize);
      fill(kSendArea, kSendLen, seed + 1);
      fill(kWriteArea, kWriteLen, seed + 2);
      fill(kWriteArea + kWriteLen, kWriteImmLen, seed + 4);
      fill(kSendArea + kSendLen, kInlineLen, seed + 5);
    }
    barrier(tag + "ready");

    if (!server) {
      auto send = [&](json wr, const char* post, const char* what, json expect) {
        wr["qp"] = "rc";
        must({{"post_send", wr}}, post);
        return poll("cq", expect, what);
      };
      StepOutcome o = send({{"wr_id", 1},
                            {"opcode", "SEND_WITH_IMM"},
                            {"sge", sge(kSendArea, kSendLen)},
                            {"imm", kImm + r32}},
                           "post_send_with_imm", "send_with_imm",
                           {{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "SEND"}});
      ck(o.ok, "send_with_imm_completion", describe(o));
      o = send({{"wr_id", 2},
                {"opcode", "SEND"},
                {"inline", true},
                {"sge", sge(kSendArea + kSendLen, kInlineLen)}},
               "post_send_inline", "send_inline",
               {{"wr_id", 2}, {"status", "SUCCESS"}, {"opcode", "SEND"}});
      ck(o.ok, "send_inline_completion", describe(o));
      o = send({{"wr_id", 3},
                {"opcode", "RDMA_WRITE"},
                {"sge", sge(kWriteArea, kWriteLen)},
                {"remote_offset", kWriteArea}},
               "post_rdma_write", "rdma_write",
               {{"wr_id", 3}, {"status", "SUCCESS"}, {"opcode", "RDMA_WRITE"}});
      ck(o.ok, "rdma_write_completion", describe(o));
      o = send({{"wr_id", 4},
                {"opcode", "RDMA_WRITE_WITH_IMM"},
                {"sge", sge(kWriteArea + kWriteLen, kWriteImmLen)},
                {"remote_offset", kWriteArea + kWriteLen},
                {"imm", kWriteImm + r32}},
               "post_rdma_write_with_imm", "rdma_write_with_imm",
               {{"wr_id", 4}, {"status", "SUCCESS"}, {"opcode", "RDMA_WRITE"}});
      ck(o.ok, "rdma_write_with_imm_completion", describe(o));
      o = send(
          {{"wr_id", 5},
           {"opcode", "RDMA_READ"},
           {"sge", sge(kReadArea, kReadLen)},
           {"remote_offset", kReadArea}},
          "post_rdma_read", "rdma_read",
          {{"wr_id", 5}, {"status", "SUCCESS"}, {"opcode", "RDMA_READ"}, {"byte_len", kReadLen}});
      ck(o.ok, "rdma_read_completion", describe(o));
      ck(matches(kReadArea, kReadLen, seed + 3), "rdma_read_data");
      o = send({{"wr_id", 6},
                {"opcode", "ATOMIC_FETCH_AND_ADD"},
                {"sge", sge(kAtomicArea, 8)},
                {"remote_offset", kAtomicArea},
                {"compare_add", 5}},
               "post_fetch_add", "fetch_add",
               {{"status", "SUCCESS"}, {"opcode", "FETCH_ADD"}, {"byte_len", 8}});
      ck(o.ok, "fetch_add_completion", describe(o));
      ck(load64(kAtomicArea) == kCounterStart, "fetch_add_original",
         std::to_string(load64(kAtomicArea)));
      o = send({{"wr_id", 7},
                {"opcode", "ATOMIC_CMP_AND_SWP"},
                {"sge", sge(kAtomicArea + 8, 8)},
                {"remote_offset", kAtomicArea},
                {"compare_add", kCounterStart + 5},
                {"swap", 7}},
               "post_cmp_swap", "cmp_swap",
               {{"status", "SUCCESS"}, {"opcode", "COMP_SWAP"}, {"byte_len", 8}});
      ck(o.ok, "cmp_swap_completion", describe(o));
      ck(load64(kAtomicArea + 8) == kCounterStart + 5, "cmp_swap_original",
         std::to_string(load64(kAtomicArea + 8)));
    } else {
      StepOutcome o = poll(
          "cq", {{"wr_id", 100}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", kSendLen}},
          "recv_send_with_imm");
      WorkCompletion wc = o.completions.front();
      ck(o.ok, "recv_send_with_imm_completion", describe(o));
      ck((wc.wcFlags & sim::wc_flags::kWithImm) != 0 && wc.immData == kImm + r32,
         "recv_send_imm_data", std::to_string(wc.immData));
      ck(wc.qpNum == ex.qp("rc")->qpNum, "recv_qp_num");
      ck(matches(kRecvArea, kSendLen, seed + 1), "recv_send_data");

      o = poll(
          "cq",
          {{"wr_id", 101}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", kInlineLen}},
          "recv_send_inline");
      wc = o.completions.front();
      ck(o.ok && (wc.wcFlags & sim::wc_flags::kWithImm) == 0, "recv_send_inline_completion",
         describe(o));
      ck(matches(kRecvArea + 8192, kInlineLen, seed + 5), "recv_send_inline_data");

      o = poll("cq",
               {{"wr_id", 102},
                {"status", "SUCCESS"},
                {"opcode", "RECV_RDMA_WITH_IMM"},
                {"byte_len", kWriteImmLen}},
               "recv_rdma_write_with_imm");
      wc = o.completions.front();
      ck(o.ok, "recv_rdma_write_with_imm_completion", describe(o));
      ck((wc.wcFlags & sim::wc_flags::kWithImm) != 0 && wc.immData == kWriteImm + r32,
         "recv_rdma_write_imm_data", std::to_string(wc.immData));
      ck(matches(kWriteArea, kWriteLen, seed + 2), "rdma_write_data");
      ck(matches(kWriteArea + kWriteLen, kWriteImmLen, seed + 4), "rdma_write_with_imm_data");
    }
    barrier(tag + "done");
    if (server) {
      ck(load64(kAtomicArea) == 7, "atomic_counter_final", std::to_string(load64(kAtomicArea)));
      const StepOutcome more = step({{"poll_cq", {{"cq", "cq"}, {"count", 1}, {"timeout_ms", 0}}}});
      ck(more.completions.empty(), "no_unexpected_completions",
         std::to_string(more.completions.size()));
    }
  }

  // UD: a SEND with immediate to the peer's UD QP through an address handle; the receiver
  // gets the 40-byte GRH slot (rxe puts the IPv4 header in its last 20 bytes) before the data.
  {
    must({{"modify_qp",
           {{"qp", "ud"},
            {"state", "INIT"},
            {"pkey_index", 0},
            {"port", dev.port},
            {"qkey", kQkey}}}},
         "modify_ud_qp_init");
    must({{"modify_qp", {{"qp", "ud"}, {"state", "RTR"}}}}, "activate_ud_qp");
    must({{"modify_qp", {{"qp", "ud"}, {"state", "RTS"}, {"sq_psn", "own"}}}}, "activate_ud_qp");
    // UD has no retransmission: on the lossy link one datagram may be lost for good, so the
    // sender sends kUdCopies identical datagrams and the receiver checks the first to arrive.
    constexpr int kUdCopies = 8;
    if (server) {
      for (int i = 0; i < kUdCopies; ++i)
        must({{"post_recv",
               {{"qp", "ud"}, {"wr_id", 200 + i}, {"sge", sge(kUdArea, kGrhLen + kUdLen)}}}},
             "post_ud_recv");
    } else {
      fill(kUdArea, kUdLen, 6);
    }
    // The UD exchange publishes the MR again: the out-of-bounds WRITE below uses it.
    must({{"exchange", {{"from", 0}, {"qp", "ud"}, {"mr", "mem"}}}}, "oob_exchange_ud");
    must({{"exchange", {{"from", 1}, {"qp", "ud"}, {"mr", "mem"}}}}, "oob_exchange_ud");
    const PeerInfo udPeer = *ex.peer();
    barrier("ud-ready");
    if (!server) {
      for (int i = 0; i < kUdCopies; ++i) {
        must({{"post_send",
               {{"qp", "ud"},
                {"wr_id", 20},
                {"opcode", "SEND_WITH_IMM"},
                {"sge", sge(kUdArea, kUdLen)},
                {"imm", kUdImm},
                {"ud_peer", true},
                {"remote_qkey", kQkey}}}},
             "post_ud_send");
        const StepOutcome o =
            poll("udcq", {{"wr_id", 20}, {"status", "SUCCESS"}, {"opcode", "SEND"}}, "ud_send");
        check(o.ok, "ud_send_completion", describe(o));
      }
    } else {
      const StepOutcome o = poll("udcq",
                                 {{"wr_id", 200},
                                  {"status", "SUCCESS"},
                                  {"opcode", "RECV"},
                                  {"byte_len", kGrhLen + kUdLen}},
                                 "ud_recv");
      const WorkCompletion wc = o.completions.front();
      check(o.ok, "ud_recv_completion", describe(o));
      check((wc.wcFlags & sim::wc_flags::kGrh) != 0 &&
                (wc.wcFlags & sim::wc_flags::kWithImm) != 0 && wc.immData == kUdImm,
            "ud_recv_flags_imm", std::to_string(wc.wcFlags) + " " + std::to_string(wc.immData));
      check(wc.srcQp == udPeer.qpn && wc.qpNum == ex.qp("ud")->qpNum, "ud_recv_qp_numbers",
            "src_qp " + std::to_string(wc.srcQp));
      check(mem[kUdArea + 20] == 0x45 && std::memcmp(&mem[kUdArea + 32], &udPeer.gid[12], 4) == 0,
            "ud_recv_grh_ipv4_source");
      check(matches(kUdArea + kGrhLen, kUdLen, 6), "ud_recv_data");
    }
    barrier("ud-done");
  }

  if (!server) {
    // A write that runs past the end of the peer's region fails with a remote access error
    // and moves the QP to the error state.
    must({{"post_send",
           {{"qp", "rc"},
            {"wr_id", 8},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(kWriteArea, 64)},
            {"remote_offset", peer.length - 16}}}},
         "post_rdma_write_out_of_bounds");
    const StepOutcome o =
        poll("cq", {{"wr_id", 8}, {"status", "REM_ACCESS_ERR"}}, "rdma_write_out_of_bounds");
    check(o.ok, "rdma_write_out_of_bounds_error", describe(o));
    const QpAttr after = need(backend->queryQp(ex.qp("rc")->handle), "query_qp_after_error");
    check(after.qpState == sim::QpState::Err, "qp_in_error_after_remote_access_error",
          std::string(sim::toString(after.qpState)));
  }
  // Both sides stay up until the other is done, so no last ACK goes to a QP that is gone.
  barrier("teardown");
  std::printf("RESULT %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
