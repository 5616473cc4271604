// One side of the lab's real-verbs test: RC SEND with immediate (multi-packet), inline SEND,
// RDMA WRITE, RDMA WRITE with immediate, RDMA READ, FETCH_ADD and CMP_SWAP, a UD SEND with
// immediate, and a WRITE past the peer's MR (remote access error) between two
// Soft-RoCE guests, through IbvBackend and the TCP out-of-band exchange. Each check prints one
// line "CHECK <name> ok|FAIL <detail>"; the last line is "RESULT PASS" or "RESULT FAIL" and
// the exit status says the same. Usage: rdmascope_lab_verbs --server | --connect HOST
// [--port P] [--rounds N] [--busy-poll] [--device NAME]. Each round repeats the operations with
// fresh data.
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "rdmascope/sim/verbs_types.h"
#include "rdmascope/verbs_backend/ibv_backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/qp_connect.h"

namespace {

using namespace rdmascope;
using namespace rdmascope::verbs_backend;
using namespace std::chrono_literals;

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

int failures = 0;

void check(bool good, const char* name, const std::string& detail = {}) {
  std::printf("CHECK %s %s%s%s\n", name, good ? "ok" : "FAIL", detail.empty() ? "" : " ",
              detail.c_str());
  std::fflush(stdout);
  if (!good) ++failures;
}

[[noreturn]] void fatal(const std::string& what, const Status& s) {
  std::printf("CHECK %s FAIL %s\nRESULT FAIL\n", what.c_str(), s.message.c_str());
  std::exit(1);
}

template <class T>
T need(Result<T> r, const char* what) {
  if (!r.ok()) fatal(what, r.status);
  return std::move(r.value);
}

void need(const Status& s, const char* what) {
  if (!s.ok()) fatal(what, s);
}

std::uint8_t pattern(std::uint32_t seed, std::uint64_t i) {
  return static_cast<std::uint8_t>((i * 131 + seed * 7 + (i >> 8)) & 0xff);
}

void fill(std::span<std::uint8_t> mem, std::uint64_t off, std::uint32_t len, std::uint32_t seed) {
  for (std::uint32_t i = 0; i < len; ++i)
    mem[off + i] = pattern(seed, i);
}

bool matches(std::span<std::uint8_t> mem, std::uint64_t off, std::uint32_t len,
             std::uint32_t seed) {
  for (std::uint32_t i = 0; i < len; ++i)
    if (mem[off + i] != pattern(seed, i)) return false;
  return true;
}

std::string describe(const WorkCompletion& wc) {
  return "wr_id " + std::to_string(wc.wrId) + " status " + std::string(sim::toString(wc.status)) +
         " opcode " + std::string(sim::toString(wc.opcode)) + " byte_len " +
         std::to_string(wc.byteLen);
}

WorkCompletion waitOne(Backend& b, Handle cq, const char* what) {
  auto r = b.waitCq(cq, 1, 20s);
  if (!r.ok()) fatal(what, r.status);
  if (r.value.empty()) fatal(what, Status::error(ETIMEDOUT, "no completion within 20 s"));
  return r.value.front();
}

std::uint64_t load64(std::span<std::uint8_t> mem, std::uint64_t off) {
  std::uint64_t v;
  std::memcpy(&v, mem.data() + off, 8);
  return v;
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
  Backend& b = *backend;
  const DeviceInfo dev = need(b.queryDevice(), "queryDevice");
  check(dev.transport == "RoCEv2", "device_transport", dev.name + " " + dev.transport);
  check(dev.gid[10] == 0xff && dev.gid[11] == 0xff, "device_gid_ipv4_mapped");
  const sim::Mtu mtu = dev.activeMtu;
  check(mtu == sim::Mtu::Mtu1024, "device_active_mtu", std::to_string(sim::mtuBytes(mtu)));

  const Handle pd = need(b.allocPd(), "allocPd");
  const unsigned access = sim::access::kLocalWrite | sim::access::kRemoteWrite |
                          sim::access::kRemoteRead | sim::access::kRemoteAtomic;
  const MemoryRegion mr = need(b.regMr(pd, kMrSize, access), "regMr");
  auto mem = b.memory(mr);
  check(mem.size() == kMrSize && reinterpret_cast<std::uintptr_t>(mem.data()) == mr.addr,
        "mr_memory");
  const Handle cq = need(b.createCq(128), "createCq");
  QpInitAttr init;
  init.qpType = sim::QpType::RC;
  init.sendCq = cq;
  init.recvCq = cq;
  const QueuePair qp = need(b.createQp(pd, init), "createQp");

  need(modifyQpToInit(b, qp.handle, sim::QpType::RC, dev.port, access), "modify_qp_init");

  std::mt19937 rng(std::random_device{}());
  PeerInfo local;
  local.lid = dev.lid;
  local.qpn = qp.qpNum;
  local.psn = rng() & 0xffffff;
  local.gid = dev.gid;
  local.addr = mr.addr;
  local.rkey = mr.rkey;
  local.length = mr.length;

  OobConnection conn;
  if (server) {
    auto listener = need(OobListener::listen(port), "oob_listen");
    conn = need(listener.accept(60s), "oob_accept");
  } else {
    conn = need(OobConnection::connect(host, port, 60s), "oob_connect");
  }
  const PeerInfo peer = need(conn.exchange(local, 30s), "oob_exchange");
  std::printf(
      "local  qpn 0x%06x psn 0x%06x\nremote qpn 0x%06x psn 0x%06x rkey 0x%08x addr 0x%llx\n",
      local.qpn, local.psn, peer.qpn, peer.psn, peer.rkey,
      static_cast<unsigned long long>(peer.addr));

  PathOptions path;
  path.pathMtu = mtu;
  path.port = dev.port;
  path.sgidIndex = dev.gidIndex;
  need(connectQp(b, qp.handle, sim::QpType::RC, local, peer, path), "connect_qp");
  const QpAttr q = need(b.queryQp(qp.handle), "query_qp");
  check(q.qpState == sim::QpState::Rts, "query_qp_state", std::string(sim::toString(q.qpState)));
  check(q.destQpNum == peer.qpn && q.sqPsn == local.psn && q.rqPsn == peer.psn, "query_qp_numbers");
  check(q.pathMtu == mtu && q.ahAttr.dgid == peer.gid, "query_qp_path");

  need(conn.barrier("ready", 60s), "barrier_ready");

  for (int round = 0; round < rounds; ++round) {
    // Appended piecewise: GCC 12 -O3 warns falsely (-Wrestrict) on "r" + std::string.
    std::string tag = std::to_string(round);
    tag.insert(tag.begin(), 'r');
    tag.push_back('.');
    auto ck = [&](bool good, const char* name, const std::string& detail = {}) {
      check(good, (tag + name).c_str(), detail);
    };
    const std::uint32_t seed = 10u * static_cast<std::uint32_t>(round);
    if (server) {
      std::memset(mem.data(), 0, kSendArea);
      fill(mem, kReadArea, kReadLen, seed + 3);
      std::uint64_t start = kCounterStart;
      std::memcpy(mem.data() + kAtomicArea, &start, 8);
      for (std::uint64_t slot = 0; slot < 3; ++slot) {
        RecvWr rw;
        rw.wrId = 100 + slot;
        rw.sgList = {{mr.addr + kRecvArea + slot * 8192, 8192, mr.lkey}};
        need(b.postRecv(qp.handle, rw), "post_recv");
      }
    } else {
      std::memset(mem.data(), 0, kMrSize);
      fill(mem, kSendArea, kSendLen, seed + 1);
      fill(mem, kWriteArea, kWriteLen, seed + 2);
      fill(mem, kWriteArea + kWriteLen, kWriteImmLen, seed + 4);
      fill(mem, kSendArea + kSendLen, kInlineLen, seed + 5);
    }
    need(conn.barrier(tag + "ready", 60s), "barrier_ready");

    if (!server) {
      SendWr send;
      send.wrId = 1;
      send.opcode = sim::WrOpcode::SendWithImm;
      send.sendFlags = sim::send_flags::kSignaled;
      send.sgList = {{mr.addr + kSendArea, kSendLen, mr.lkey}};
      send.immData = kImm + static_cast<std::uint32_t>(round);
      need(b.postSend(qp.handle, send), "post_send_with_imm");
      WorkCompletion wc = waitOne(b, cq, "send_with_imm");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Send && wc.wrId == 1,
         "send_with_imm_completion", describe(wc));

      SendWr inl;
      inl.wrId = 2;
      inl.opcode = sim::WrOpcode::Send;
      inl.sendFlags = sim::send_flags::kSignaled | sim::send_flags::kInline;
      inl.sgList = {{mr.addr + kSendArea + kSendLen, kInlineLen, 0}};
      need(b.postSend(qp.handle, inl), "post_send_inline");
      wc = waitOne(b, cq, "send_inline");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Send && wc.wrId == 2,
         "send_inline_completion", describe(wc));

      SendWr write;
      write.wrId = 3;
      write.opcode = sim::WrOpcode::RdmaWrite;
      write.sendFlags = sim::send_flags::kSignaled;
      write.sgList = {{mr.addr + kWriteArea, kWriteLen, mr.lkey}};
      write.remoteAddr = peer.addr + kWriteArea;
      write.rkey = peer.rkey;
      need(b.postSend(qp.handle, write), "post_rdma_write");
      wc = waitOne(b, cq, "rdma_write");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::RdmaWrite &&
             wc.wrId == 3,
         "rdma_write_completion", describe(wc));

      SendWr writeImm = write;
      writeImm.wrId = 4;
      writeImm.opcode = sim::WrOpcode::RdmaWriteWithImm;
      writeImm.sgList = {{mr.addr + kWriteArea + kWriteLen, kWriteImmLen, mr.lkey}};
      writeImm.remoteAddr = peer.addr + kWriteArea + kWriteLen;
      writeImm.immData = kWriteImm + static_cast<std::uint32_t>(round);
      need(b.postSend(qp.handle, writeImm), "post_rdma_write_with_imm");
      wc = waitOne(b, cq, "rdma_write_with_imm");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::RdmaWrite &&
             wc.wrId == 4,
         "rdma_write_with_imm_completion", describe(wc));

      SendWr read;
      read.wrId = 5;
      read.opcode = sim::WrOpcode::RdmaRead;
      read.sendFlags = sim::send_flags::kSignaled;
      read.sgList = {{mr.addr + kReadArea, kReadLen, mr.lkey}};
      read.remoteAddr = peer.addr + kReadArea;
      read.rkey = peer.rkey;
      need(b.postSend(qp.handle, read), "post_rdma_read");
      wc = waitOne(b, cq, "rdma_read");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::RdmaRead &&
             wc.wrId == 5 && wc.byteLen == kReadLen,
         "rdma_read_completion", describe(wc));
      ck(matches(mem, kReadArea, kReadLen, seed + 3), "rdma_read_data");

      SendWr faa;
      faa.wrId = 6;
      faa.opcode = sim::WrOpcode::AtomicFetchAndAdd;
      faa.sendFlags = sim::send_flags::kSignaled;
      faa.sgList = {{mr.addr + kAtomicArea, 8, mr.lkey}};
      faa.remoteAddr = peer.addr + kAtomicArea;
      faa.rkey = peer.rkey;
      faa.compareAdd = 5;
      need(b.postSend(qp.handle, faa), "post_fetch_add");
      wc = waitOne(b, cq, "fetch_add");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::FetchAdd &&
             wc.byteLen == 8,
         "fetch_add_completion", describe(wc));
      ck(load64(mem, kAtomicArea) == kCounterStart, "fetch_add_original",
         std::to_string(load64(mem, kAtomicArea)));

      SendWr cas = faa;
      cas.wrId = 7;
      cas.opcode = sim::WrOpcode::AtomicCmpAndSwp;
      cas.sgList = {{mr.addr + kAtomicArea + 8, 8, mr.lkey}};
      cas.compareAdd = kCounterStart + 5;
      cas.swap = 7;
      need(b.postSend(qp.handle, cas), "post_cmp_swap");
      wc = waitOne(b, cq, "cmp_swap");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::CompSwap &&
             wc.byteLen == 8,
         "cmp_swap_completion", describe(wc));
      ck(load64(mem, kAtomicArea + 8) == kCounterStart + 5, "cmp_swap_original",
         std::to_string(load64(mem, kAtomicArea + 8)));
    } else {
      WorkCompletion wc = waitOne(b, cq, "recv_send_with_imm");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Recv &&
             wc.wrId == 100 && wc.byteLen == kSendLen,
         "recv_send_with_imm_completion", describe(wc));
      ck((wc.wcFlags & sim::wc_flags::kWithImm) != 0 &&
             wc.immData == kImm + static_cast<std::uint32_t>(round),
         "recv_send_imm_data", std::to_string(wc.immData));
      ck(wc.qpNum == qp.qpNum, "recv_qp_num");
      ck(matches(mem, kRecvArea, kSendLen, seed + 1), "recv_send_data");

      wc = waitOne(b, cq, "recv_send_inline");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Recv &&
             wc.wrId == 101 && wc.byteLen == kInlineLen &&
             (wc.wcFlags & sim::wc_flags::kWithImm) == 0,
         "recv_send_inline_completion", describe(wc));
      ck(matches(mem, kRecvArea + 8192, kInlineLen, seed + 5), "recv_send_inline_data");

      wc = waitOne(b, cq, "recv_rdma_write_with_imm");
      ck(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::RecvRdmaWithImm &&
             wc.wrId == 102 && wc.byteLen == kWriteImmLen,
         "recv_rdma_write_with_imm_completion", describe(wc));
      ck((wc.wcFlags & sim::wc_flags::kWithImm) != 0 &&
             wc.immData == kWriteImm + static_cast<std::uint32_t>(round),
         "recv_rdma_write_imm_data", std::to_string(wc.immData));
      ck(matches(mem, kWriteArea, kWriteLen, seed + 2), "rdma_write_data");
      ck(matches(mem, kWriteArea + kWriteLen, kWriteImmLen, seed + 4), "rdma_write_with_imm_data");
    }
    need(conn.barrier(tag + "done", 60s), "barrier_done");
    if (server) {
      ck(load64(mem, kAtomicArea) == 7, "atomic_counter_final",
         std::to_string(load64(mem, kAtomicArea)));
      auto more = need(b.pollCq(cq, 4), "poll_cq_after");
      ck(more.empty(), "no_unexpected_completions", std::to_string(more.size()));
    }
  }

  // UD: a SEND with immediate to the peer's UD QP through an address handle; the receiver
  // gets the 40-byte GRH slot (rxe puts the IPv4 header in its last 20 bytes) before the data.
  {
    const Handle udCq = need(b.createCq(16), "create_ud_cq");
    QpInitAttr udInit;
    udInit.qpType = sim::QpType::UD;
    udInit.sendCq = udCq;
    udInit.recvCq = udCq;
    const QueuePair ud = need(b.createQp(pd, udInit), "create_ud_qp");
    need(modifyQpToInit(b, ud.handle, sim::QpType::UD, dev.port, 0, kQkey), "modify_ud_qp_init");
    need(activateUdQp(b, ud.handle, local.psn), "activate_ud_qp");
    // UD has no retransmission: on the lossy link one datagram may be lost for good, so the
    // sender sends kUdCopies identical datagrams and the receiver checks the first to arrive.
    constexpr int kUdCopies = 8;
    if (server) {
      for (int i = 0; i < kUdCopies; ++i) {
        RecvWr rw;
        rw.wrId = 200 + static_cast<std::uint64_t>(i);
        rw.sgList = {{mr.addr + kUdArea, kGrhLen + kUdLen, mr.lkey}};
        need(b.postRecv(ud.handle, rw), "post_ud_recv");
      }
    } else {
      fill(mem, kUdArea, kUdLen, 6);
    }
    PeerInfo udLocal = local;
    udLocal.qpn = ud.qpNum;
    const PeerInfo udPeer = need(conn.exchange(udLocal, 30s), "oob_exchange_ud");
    need(conn.barrier("ud-ready", 60s), "barrier_ud_ready");
    if (!server) {
      SendWr send;
      send.wrId = 20;
      send.opcode = sim::WrOpcode::SendWithImm;
      send.sendFlags = sim::send_flags::kSignaled;
      send.sgList = {{mr.addr + kUdArea, kUdLen, mr.lkey}};
      send.immData = kUdImm;
      send.ah.isGlobal = true;
      send.ah.dgid = udPeer.gid;
      send.ah.sgidIndex = dev.gidIndex;
      send.ah.hopLimit = 64;
      send.ah.portNum = dev.port;
      send.remoteQpn = udPeer.qpn;
      send.remoteQkey = kQkey;
      for (int i = 0; i < kUdCopies; ++i) {
        need(b.postSend(ud.handle, send), "post_ud_send");
        const WorkCompletion wc = waitOne(b, udCq, "ud_send");
        check(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Send &&
                  wc.wrId == 20,
              "ud_send_completion", describe(wc));
      }
    } else {
      const WorkCompletion wc = waitOne(b, udCq, "ud_recv");
      check(wc.status == sim::WcStatus::Success && wc.opcode == sim::WcOpcode::Recv &&
                wc.wrId == 200 && wc.byteLen == kGrhLen + kUdLen,
            "ud_recv_completion", describe(wc));
      check((wc.wcFlags & sim::wc_flags::kGrh) != 0 &&
                (wc.wcFlags & sim::wc_flags::kWithImm) != 0 && wc.immData == kUdImm,
            "ud_recv_flags_imm", std::to_string(wc.wcFlags) + " " + std::to_string(wc.immData));
      check(wc.srcQp == udPeer.qpn && wc.qpNum == ud.qpNum, "ud_recv_qp_numbers",
            "src_qp " + std::to_string(wc.srcQp));
      check(mem[kUdArea + 20] == 0x45 && std::memcmp(&mem[kUdArea + 32], &udPeer.gid[12], 4) == 0,
            "ud_recv_grh_ipv4_source");
      check(matches(mem, kUdArea + kGrhLen, kUdLen, 6), "ud_recv_data");
    }
    need(conn.barrier("ud-done", 60s), "barrier_ud_done");
  }

  if (!server) {
    // A write that runs past the end of the peer's region fails with a remote access error
    // and moves the QP to the error state.
    SendWr bad;
    bad.wrId = 8;
    bad.opcode = sim::WrOpcode::RdmaWrite;
    bad.sendFlags = sim::send_flags::kSignaled;
    bad.remoteAddr = peer.addr + peer.length - 16;
    bad.rkey = peer.rkey;
    bad.sgList = {{mr.addr + kWriteArea, 64, mr.lkey}};
    need(b.postSend(qp.handle, bad), "post_rdma_write_out_of_bounds");
    WorkCompletion wc = waitOne(b, cq, "rdma_write_out_of_bounds");
    check(wc.status == sim::WcStatus::RemAccessErr && wc.wrId == 8,
          "rdma_write_out_of_bounds_error", describe(wc));
    const QpAttr after = need(b.queryQp(qp.handle), "query_qp_after_error");
    check(after.qpState == sim::QpState::Err, "qp_in_error_after_remote_access_error",
          std::string(sim::toString(after.qpState)));
  }
  // Both sides stay up until the other is done, so no last ACK goes to a QP that is gone.
  need(conn.barrier("teardown", 60s), "barrier_teardown");
  std::printf("RESULT %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
