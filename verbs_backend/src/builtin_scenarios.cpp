// The built-in scenarios, generated as scenario JSON so that what a user sees and edits is
// exactly what runs.

#include <filesystem>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::verbs_backend {

using nlohmann::json;

namespace {

struct Setup {
  std::string type = "RC";
  int mtu = 1024;
  std::uint64_t bufSize = 65536;
  json accessA = json::array({"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC"});
  json accessB = json::array({"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC"});
  std::string fillA = "pattern";
  std::string fillB = "zero";
  std::uint32_t psnA = 0x1a2b3c;
  std::uint32_t psnB = 0x4d5e6f;
  int timeout = 14, retryCnt = 7, rnrRetry = 7, minRnrTimer = 12;
};

json hostJson(const std::string& name, const Setup& s, bool a) {
  return {{"name", name},
          {"mrs", json::array({{{"name", "buf"},
                                {"size", s.bufSize},
                                {"access", a ? s.accessA : s.accessB},
                                {"fill", a ? s.fillA : s.fillB}}})},
          {"cqs", json::array({{{"name", "cq"}, {"depth", 64}}})},
          {"qps", json::array({{{"name", "qp"},
                                {"type", s.type},
                                {"send_cq", "cq"},
                                {"recv_cq", "cq"},
                                {"max_send_wr", 64},
                                {"max_recv_wr", 64},
                                {"psn", a ? s.psnA : s.psnB}}})}};
}

/// rc_pingpong's connection setup: INIT on both, the out-of-band exchange, RTR, RTS.
json connectSteps(const Setup& s) {
  json steps = json::array();
  const bool ud = s.type == "UD";
  for (int h = 0; h < 2; ++h) {
    json m = {{"qp", "qp"}, {"state", "INIT"}, {"pkey_index", 0}, {"port", 1}};
    if (ud) {
      m["qkey"] = 0x11111111;
    } else {
      m["access"] = s.type == "UC" ? json::array({"REMOTE_WRITE"})
                                   : json::array({"REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC"});
    }
    steps.push_back({{"host", h}, {"modify_qp", m}});
  }
  steps.push_back({{"exchange", {{"from", 0}, {"qp", "qp"}, {"mr", "buf"}}}});
  steps.push_back({{"exchange", {{"from", 1}, {"qp", "qp"}, {"mr", "buf"}}}});
  for (int h = 0; h < 2; ++h) {
    json m = {{"qp", "qp"}, {"state", "RTR"}};
    if (!ud) {
      m["path_mtu"] = s.mtu;
      m["dest_qpn"] = "peer";
      m["rq_psn"] = "peer";
      m["av"] = {{"dgid", "peer"}, {"dlid", "peer"}, {"hop_limit", 64}};
      if (s.type == "RC") {
        m["max_dest_rd_atomic"] = 1;
        m["min_rnr_timer"] = s.minRnrTimer;
      }
    }
    steps.push_back({{"host", h}, {"modify_qp", m}});
  }
  for (int h = 0; h < 2; ++h) {
    json m = {{"qp", "qp"}, {"state", "RTS"}, {"sq_psn", "own"}};
    if (s.type == "RC") {
      m["timeout"] = s.timeout;
      m["retry_cnt"] = s.retryCnt;
      m["rnr_retry"] = s.rnrRetry;
      m["max_rd_atomic"] = 1;
    }
    steps.push_back({{"host", h}, {"modify_qp", m}});
  }
  return steps;
}

json scenario(const std::string& name, const std::string& description, const Setup& s,
              const json& body, const json& faults = json::object()) {
  json steps = connectSteps(s);
  for (const auto& st : body)
    steps.push_back(st);
  json j = {{"name", name},
            {"description", description},
            {"seed", 1},
            {"wire", "roce-v2-ipv4"},
            {"link", {{"latency_us", 1.0}, {"gbps", 100}, {"mtu", 9000}}},
            {"hosts", json::array({hostJson("host-a", s, true), hostJson("host-b", s, false)})},
            {"steps", steps}};
  if (!faults.empty()) j["faults"] = faults;
  return j;
}

json sge(std::uint64_t offset, std::uint32_t length) {
  return json::array({{{"mr", "buf"}, {"offset", offset}, {"length", length}}});
}

json poll(int host, int count, const json& expect, int timeoutMs = 1000) {
  return {
      {"host", host},
      {"poll_cq", {{"cq", "cq"}, {"count", count}, {"timeout_ms", timeoutMs}, {"expect", expect}}}};
}

json compare(std::uint64_t offA, std::uint64_t offB, std::uint64_t len, int from = 0) {
  return {{"compare_memory",
           {{"host_a", from},
            {"mr_a", "buf"},
            {"offset_a", offA},
            {"host_b", 1 - from},
            {"mr_b", "buf"},
            {"offset_b", offB},
            {"length", len}}}};
}

json build(const std::string& name) {
  Setup s;
  if (name == "rc-send-recv") {
    return scenario(
        name, "RC SEND of 3000 bytes at MTU 1024: SEND FIRST, MIDDLE, LAST and one ACK", s,
        {{{"host", 1}, {"post_recv", {{"qp", "qp"}, {"wr_id", 100}, {"sge", sge(0, 4096)}}}},
         {{"host", 0},
          {"post_send", {{"qp", "qp"}, {"wr_id", 1}, {"opcode", "SEND"}, {"sge", sge(0, 3000)}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "SEND"}}}),
         poll(1, 1,
              {{{"wr_id", 100}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", 3000}}}),
         compare(0, 0, 3000)});
  }
  if (name == "rc-write") {
    return scenario(
        name, "RC RDMA WRITE of 8192 bytes: WRITE FIRST (RETH), MIDDLEs, LAST; no receive WQE", s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(0, 8192)},
            {"remote_offset", 0}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "RDMA_WRITE"}}}),
         compare(0, 0, 8192)});
  }
  if (name == "rc-write-imm") {
    return scenario(
        name,
        "RC RDMA WRITE WITH IMMEDIATE: the data lands by RDMA and the immediate consumes a "
        "receive WQE",
        s,
        {{{"host", 1}, {"post_recv", {{"qp", "qp"}, {"wr_id", 100}, {"sge", json::array()}}}},
         {{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_WRITE_WITH_IMM"},
            {"sge", sge(0, 2048)},
            {"remote_offset", 4096},
            {"imm", 0x1234}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "RDMA_WRITE"}}}),
         poll(1, 1,
              {{{"wr_id", 100},
                {"status", "SUCCESS"},
                {"opcode", "RECV_RDMA_WITH_IMM"},
                {"byte_len", 2048},
                {"imm", 0x1234}}}),
         compare(0, 4096, 2048)});
  }
  if (name == "rc-read") {
    s.fillA = "zero";
    s.fillB = "pattern";
    return scenario(
        name,
        "RC RDMA READ of 2000 bytes: one READ REQUEST reserving two PSNs, answered by READ "
        "RESPONSE FIRST and LAST",
        s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_READ"},
            {"sge", sge(0, 2000)},
            {"remote_offset", 0}}}},
         poll(0, 1,
              {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "RDMA_READ"}, {"byte_len", 2000}}}),
         compare(0, 0, 2000, 1)});
  }
  if (name == "rc-atomic") {
    s.fillB = "zero";
    return scenario(
        name,
        "RC FETCH_AND_ADD then COMPARE_AND_SWAP on an 8-byte word, each answered by an ATOMIC "
        "ACKNOWLEDGE carrying the original value",
        s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "ATOMIC_FETCH_AND_ADD"},
            {"sge", sge(0, 8)},
            {"remote_offset", 64},
            {"compare_add", 5}}}},
         {{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 2},
            {"opcode", "ATOMIC_CMP_AND_SWP"},
            {"sge", sge(8, 8)},
            {"remote_offset", 64},
            {"compare_add", 5},
            {"swap", 100}}}},
         poll(0, 2,
              {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "FETCH_ADD"}},
               {{"wr_id", 2}, {"status", "SUCCESS"}, {"opcode", "COMP_SWAP"}}})});
  }
  if (name == "uc-write") {
    s.type = "UC";
    s.accessB = json::array({"LOCAL_WRITE", "REMOTE_WRITE"});
    return scenario(
        name,
        "UC RDMA WRITEs: no ACKs; the middle packet of the first message is lost, so the "
        "responder drops the rest of that message and accepts the next FIRST",
        s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(0, 3072)},
            {"remote_offset", 0}}}},
         {{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 2},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(8192, 3000)},
            {"remote_offset", 8192}}}},
         poll(0, 2, {{{"wr_id", 1}, {"status", "SUCCESS"}}, {{"wr_id", 2}, {"status", "SUCCESS"}}}),
         {{"run_us", 50}},
         compare(8192, 8192, 3000)},
        {{"drop_psns", json::array({{{"psn", s.psnA + 1}, {"from", 0}}})}});
  }
  if (name == "ud-send") {
    s.type = "UD";
    return scenario(
        name,
        "UD SEND ONLY with DETH (Q_Key, source QP); the receive buffer gets the 40-byte GRH "
        "before the payload",
        s,
        {{{"host", 1}, {"post_recv", {{"qp", "qp"}, {"wr_id", 100}, {"sge", sge(0, 40 + 1024)}}}},
         {{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "SEND"},
            {"sge", sge(0, 512)},
            {"ud_peer", true},
            {"remote_qkey", 0x11111111}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}}}),
         poll(1, 1,
              {{{"wr_id", 100}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", 552}}}),
         {{"compare_memory",
           {{"host_a", 0},
            {"mr_a", "buf"},
            {"offset_a", 0},
            {"host_b", 1},
            {"mr_b", "buf"},
            {"offset_b", 40},
            {"length", 512}}}}});
  }
  if (name == "rnr-retry") {
    s.minRnrTimer = 12;  // 0.64 ms
    return scenario(
        name,
        "RC SEND before the peer posted a receive: RNR NAK (min_rnr_timer 12 = 0.64 ms), the "
        "requester waits and resends; rnr_retry 7 retries forever",
        s,
        {{{"host", 0},
          {"post_send", {{"qp", "qp"}, {"wr_id", 1}, {"opcode", "SEND"}, {"sge", sge(0, 256)}}}},
         {{"run_us", 100}},
         {{"host", 1}, {"post_recv", {{"qp", "qp"}, {"wr_id", 100}, {"sge", sge(0, 1024)}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}}}, 10),
         poll(1, 1, {{{"wr_id", 100}, {"status", "SUCCESS"}, {"byte_len", 256}}}, 10)});
  }
  if (name == "lossy-go-back-n") {
    s.psnA = 0xfffffa;  // the message crosses the 24-bit PSN wrap
    return scenario(
        name,
        "RC RDMA WRITE of 16 KiB across the PSN wrap with PSN 0x000001 lost: the responder "
        "NAKs with PSN sequence error and the requester goes back to the lost PSN",
        s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(0, 16384)},
            {"remote_offset", 0}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "SUCCESS"}}}),
         compare(0, 0, 16384)},
        {{"drop_psns", json::array({{{"psn", 1}, {"from", 0}}})}});
  }
  if (name == "remote-access-error") {
    s.accessB = json::array({"LOCAL_WRITE"});
    return scenario(
        name,
        "RC RDMA WRITE to an MR without IBV_ACCESS_REMOTE_WRITE: NAK remote access error, "
        "REM_ACCESS_ERR, both QPs go to ERR and later WRs are flushed",
        s,
        {{{"host", 0},
          {"post_send",
           {{"qp", "qp"},
            {"wr_id", 1},
            {"opcode", "RDMA_WRITE"},
            {"sge", sge(0, 1024)},
            {"remote_offset", 0}}}},
         {{"host", 0},
          {"post_send", {{"qp", "qp"}, {"wr_id", 2}, {"opcode", "SEND"}, {"sge", sge(0, 64)}}}},
         poll(0, 2,
              {{{"wr_id", 1}, {"status", "REM_ACCESS_ERR"}},
               {{"wr_id", 2}, {"status", "WR_FLUSH_ERR"}}})});
  }
  if (name == "retry-exceeded") {
    s.timeout = 8;  // 1.05 ms
    s.retryCnt = 2;
    return scenario(
        name,
        "RC SEND into a link that loses everything host-a sends: the retransmit timer (4.096 us "
        "x 2^8) fires three times, then RETRY_EXC_ERR",
        s,
        {{{"host", 1}, {"post_recv", {{"qp", "qp"}, {"wr_id", 100}, {"sge", sge(0, 1024)}}}},
         {{"host", 0},
          {"post_send", {{"qp", "qp"}, {"wr_id", 1}, {"opcode", "SEND"}, {"sge", sge(0, 512)}}}},
         poll(0, 1, {{{"wr_id", 1}, {"status", "RETRY_EXC_ERR"}}}, 100)},
        {{"loss", 1.0}, {"only_from", 0}});
  }
  if (name == "rc-lossy-stream") {
    // host-b is the requester: the lab's --loss applies netem to guest 2 (host-b), so its
    // requests are lost and guest 1's capture shows the responder's NAKs and the resends.
    s.fillA = "zero";
    s.fillB = "pattern";
    json body = json::array();
    body.push_back(
        {{"host", 0}, {"post_recv", {{"qp", "qp"}, {"wr_id", 200}, {"sge", sge(32768, 4096)}}}});
    body.push_back(
        {{"host", 0}, {"post_recv", {{"qp", "qp"}, {"wr_id", 201}, {"sge", sge(36864, 4096)}}}});
    for (int i = 0; i < 8; ++i) {
      const bool send = i % 4 == 3;
      const std::uint64_t off = static_cast<std::uint64_t>(i) * 4096;
      json wr = {{"qp", "qp"},
                 {"wr_id", i + 1},
                 {"opcode", send ? "SEND" : "RDMA_WRITE"},
                 {"sge", sge(off, send ? 3000 : 4096)}};
      if (!send) wr["remote_offset"] = off;
      body.push_back({{"host", 1}, {"post_send", wr}});
      body.push_back(poll(
          1, 1,
          {{{"wr_id", i + 1}, {"status", "SUCCESS"}, {"opcode", send ? "SEND" : "RDMA_WRITE"}}},
          10000));
    }
    body.push_back(poll(0, 2,
                        {{{"wr_id", 200}, {"status", "SUCCESS"}, {"byte_len", 3000}},
                         {{"wr_id", 201}, {"status", "SUCCESS"}, {"byte_len", 3000}}},
                        10000));
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t off = static_cast<std::uint64_t>(i) * 4096;
      if (i % 4 == 3)
        body.push_back(compare(off, 32768 + 4096 * static_cast<std::uint64_t>(i / 4), 3000, 1));
      else
        body.push_back(compare(off, off, 4096, 1));
    }
    return scenario(name,
                    "host-b sends six RDMA WRITEs of 4 KiB and two SENDs of 3000 bytes to host-a, "
                    "one at a time (four packets each); run in the lab with --loss to see NAKs "
                    "and resends, then replay the same drops in the simulator",
                    s, body);
  }
  if (name == "tour") {
    // The teaching tour the GUI opens on. "title" and "explanation" (of the scenario: its
    // setup; of a step: the part starting there) are narration the runner ignores.
    s.bufSize = 8192;
    s.fillA = "text:Hello from host A: this SEND spans three packets. ";
    s.fillB = "text:Data READ from host B. ";
    s.minRnrTimer = 1;  // 0.01 ms: the RNR retry comes back quickly
    auto narrate = [](json& step, const char* title, const char* text) {
      step["title"] = title;
      step["explanation"] = text;
    };
    auto send = [](int wrId, std::uint64_t offset, std::uint32_t length) {
      return json{
          {"host", 0},
          {"post_send",
           {{"qp", "qp"}, {"wr_id", wrId}, {"opcode", "SEND"}, {"sge", sge(offset, length)}}}};
    };
    auto recv = [](int wrId, std::uint64_t offset, std::uint32_t length) {
      return json{{"host", 1},
                  {"post_recv", {{"qp", "qp"}, {"wr_id", wrId}, {"sge", sge(offset, length)}}}};
    };
    json multiPacket = recv(1, 0, 4096);
    narrate(
        multiPacket, "A multi-packet SEND",
        "Host B posts a receive; host A sends 3000 bytes. With a path MTU of 1024 the NIC cuts "
        "the message into SEND FIRST, MIDDLE and LAST, one PSN each. B's NIC places each payload "
        "in the receive buffer by DMA and acknowledges; each application polls its completion.");
    json write = {{"host", 0},
                  {"post_send",
                   {{"qp", "qp"},
                    {"wr_id", 102},
                    {"opcode", "RDMA_WRITE"},
                    {"sge", sge(4096, 1500)},
                    {"remote_offset", 4096}}}};
    narrate(
        write, "An RDMA WRITE",
        "Host A writes 1500 bytes straight into host B's memory, at the address and rkey B gave "
        "it. B's CPU does nothing and B gets no completion: only A learns, from the ACK, that "
        "the write is done.");
    json read = {{"host", 0},
                 {"post_send",
                  {{"qp", "qp"},
                   {"wr_id", 103},
                   {"opcode", "RDMA_READ"},
                   {"sge", sge(6144, 2000)},
                   {"remote_offset", 6144}}}};
    narrate(read, "An RDMA READ",
            "Host A reads 2000 bytes from host B's memory. One READ REQUEST goes out; B's NIC "
            "answers with READ RESPONSE FIRST and LAST, which carry the data and acknowledge the "
            "request.");
    json rnr = send(104, 3072, 200);
    narrate(rnr, "Receiver not ready (RNR NAK)",
            "Host A sends 200 bytes, but host B has no receive posted. B's NIC answers with an RNR "
            "NAK carrying a timer (min_rnr_timer 1: 0.01 ms); A waits that long and retries the "
            "SEND, which succeeds once B has posted a receive.");
    json j = scenario(
        name,
        "A tour: connection setup with the out-of-band exchange, a multi-packet SEND, an RDMA "
        "WRITE, an RDMA READ and a SEND that meets a receiver not ready (RNR NAK)",
        s,
        {multiPacket,
         send(101, 0, 3000),
         poll(0, 1, {{{"wr_id", 101}, {"status", "SUCCESS"}, {"opcode", "SEND"}}}),
         poll(1, 1,
              {{{"wr_id", 1}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", 3000}}}),
         compare(0, 0, 3000),
         write,
         poll(0, 1, {{{"wr_id", 102}, {"status", "SUCCESS"}, {"opcode", "RDMA_WRITE"}}}),
         compare(4096, 4096, 1500),
         read,
         poll(0, 1,
              {{{"wr_id", 103},
                {"status", "SUCCESS"},
                {"opcode", "RDMA_READ"},
                {"byte_len", 2000}}}),
         compare(6144, 6144, 2000, 1),
         rnr,
         {{"run_us", 5}},
         recv(2, 3072, 1024),
         poll(0, 1, {{{"wr_id", 104}, {"status", "SUCCESS"}, {"opcode", "SEND"}}}),
         poll(1, 1, {{{"wr_id", 2}, {"status", "SUCCESS"}, {"opcode", "RECV"}, {"byte_len", 200}}}),
         compare(3072, 3072, 200)});
    j["title"] = "Tour: SEND, WRITE, READ, RNR NAK";
    j["explanation"] =
        "Each host opens its device, allocates a protection domain, registers 8 KiB of memory "
        "(getting an lkey for itself and an rkey for its peer), creates a completion queue and "
        "an RC queue pair, which starts in RESET.";
    narrate(j["steps"][0], "Connect the queue pairs",
            "Each QP goes RESET -> INIT; the hosts exchange QP number, PSN, GID and their buffer's "
            "address and rkey out of band (rc_pingpong does it over TCP); then each QP goes to RTR "
            "(ready to receive: it knows its peer) and to RTS (ready to send), each step with an "
            "explicit attribute mask.");
    return j;
  }
  throw ScenarioError("unknown built-in scenario \"" + name + "\"");
}

}  // namespace

std::vector<std::string> builtinScenarioNames() {
  return {
      "rc-send-recv",   "rc-write",        "rc-write-imm", "rc-read",         "rc-atomic",
      "uc-write",       "ud-send",         "rnr-retry",    "lossy-go-back-n", "remote-access-error",
      "retry-exceeded", "rc-lossy-stream", "tour"};
}

nlohmann::json builtinScenarioJson(const std::string& name) {
  return build(name);
}

Scenario builtinScenario(const std::string& name) {
  return parseScenario(build(name), "<builtin " + name + ">");
}

Scenario findScenario(const std::string& nameOrFile) {
  for (const auto& name : builtinScenarioNames())
    if (name == nameOrFile) return builtinScenario(name);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(nameOrFile, ec)) {
    // Appended piecewise: gcc 12 at -O3 warns falsely (-Wrestrict) on literal + string&&.
    std::string message = "'";
    message.append(nameOrFile).append("' is neither a built-in scenario nor a file");
    throw ScenarioError(message);
  }
  return loadScenarioFile(nameOrFile);
}

}  // namespace rdmascope::verbs_backend
