// The scenario format as data. Keep it in step with the reader (scenario_file.cpp), which
// refuses keys missing here, and with docs/scenario-format.md and docs/scenario.schema.json,
// which tests compare with it.
#include "rdmascope/verbs_backend/scenario_format.h"

#include <algorithm>

namespace rdmascope::verbs_backend {

namespace {

constexpr std::string_view kU64 = "0 .. 18446744073709551615";
constexpr std::string_view kU32 = "0 .. 4294967295";
constexpr std::string_view kPsn = "0 .. 16777215";
constexpr std::string_view kHost = "0 or 1";
constexpr std::string_view kAccess = "LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC";
constexpr std::string_view kStates = "RESET, INIT, RTR, RTS, SQD, SQE, ERR";
constexpr std::string_view kNotSet = "not in the mask";
constexpr std::string_view kNote = "string or array of strings";

std::vector<FormatObject> build() {
  return {
      {"scenario",
       "/",
       {{"$schema", "string", "a path or URL of docs/scenario.schema.json", "none",
         "(for editors; the reader ignores it)"},
        {"name", "string", "any", "the file's path", ""},
        {"title", "string", "any", "the name", "(narration: the GUI's title of the scenario)"},
        {"description", "string", "any", "empty", ""},
        {"explanation", "string", "any", "the description",
         "(narration: the GUI's text for the setup)"},
        {"comment", kNote, "any", "none", "(notes for the reader of the file; ignored)"},
        {"seed", "integer", kU64, "1", "(the simulator's random draws)"},
        {"wire", "string", "roce-v2-ipv4, roce-v2-ipv6, roce-v1, infiniband", "roce-v2-ipv4",
         "(the simulator's encapsulation)"},
        {"link", "object", "see link", "a 1 us, 100 Gb/s link with MTU 9000", ""},
        {"faults", "object", "see faults", "no faults", ""},
        {"hosts", "array of objects", "exactly two: see host", "required", ""},
        {"steps", "array of objects", "see step", "required", ""}}},
      {"link",
       "/link",
       {{"latency_us", "number", "0 .. 1000000", "1", "(propagation delay, each direction)"},
        {"gbps", "number", "0.001 .. 100000", "100", "(serialization rate)"},
        {"mtu", "integer", "0 .. 65535", "9000", "(largest IP or GRH+IB packet on the link)"}}},
      {"faults",
       "/faults",
       {{"loss", "number", "0 .. 1", "0", "(chance each frame is lost)"},
        {"reorder", "number", "0 .. 1", "0", "(chance a frame is held back)"},
        {"reorder_delay_us", "number", "0 .. 1000000", "5", "(how long it is held back)"},
        {"duplicate", "number", "0 .. 1", "0", "(chance a frame arrives twice)"},
        {"corrupt", "number", "0 .. 1", "0", "(chance one byte of a frame flips)"},
        {"drop_frames", "array of integers", kU64, "none", "(1-based frame numbers to lose)"},
        {"drop_psns", "array of objects", "see drop_psn", "none", ""},
        {"pauses", "array of objects", "see pause", "none", ""},
        {"only_from", "integer", kHost, "both hosts", "(the rates apply to this host's frames)"}}},
      {"drop_psn",
       "/faults/drop_psns/N",
       {{"psn", "integer", kPsn, "required", "(BTH PSN of the request packet to lose)"},
        {"from", "integer", kHost, "either host", ""},
        {"count", "integer", "0 .. 1000", "1", "(transmissions of that PSN to lose)"},
        {"occurrence", "integer", "0 .. 1000000", "0",
         "(lose only the n-th transmission; 0: the next count)"}}},
      {"pause",
       "/faults/pauses/N",
       {{"start_us", "number", "0 .. 3600000000", "required", "(simulated time)"},
        {"duration_us", "number", "0 .. 3600000000", "required", "(the link sends nothing)"}}},
      {"host",
       "/hosts/N",
       {{"name", "string", "unique", "host-a, host-b", ""},
        {"mrs", "array of objects", "see mr", "none", ""},
        {"cqs", "array of objects", "see cq", "required", ""},
        {"qps", "array of objects", "see qp", "required", ""}}},
      {"mr",
       "/hosts/N/mrs/N",
       {{"name", "string", "unique on the host", "required", ""},
        {"size", "integer", "1 .. 4294967296", "required", "ibv_reg_mr length"},
        {"access", "array of strings", kAccess, "[] (local read only)",
         "ibv_reg_mr access (IBV_ACCESS_*)"},
        {"fill", "string", "zero, pattern, text:TEXT", "zero", "(the buffer's first bytes)"}}},
      {"cq",
       "/hosts/N/cqs/N",
       {{"name", "string", "unique on the host", "required", ""},
        {"depth", "integer", "1 .. 65536", "16", "ibv_create_cq cqe"}}},
      {"qp",
       "/hosts/N/qps/N",
       {{"name", "string", "unique on the host", "required", ""},
        {"type", "string", "RC, UC, UD", "required", "ibv_qp_init_attr.qp_type (IBV_QPT_*)"},
        {"send_cq", "string", "a CQ of the host", "required", "ibv_qp_init_attr.send_cq"},
        {"recv_cq", "string", "a CQ of the host", "required", "ibv_qp_init_attr.recv_cq"},
        {"max_send_wr", "integer", kU32, "64", "ibv_qp_init_attr.cap.max_send_wr"},
        {"max_recv_wr", "integer", kU32, "64", "ibv_qp_init_attr.cap.max_recv_wr"},
        {"max_inline_data", "integer", kU32, "64", "ibv_qp_init_attr.cap.max_inline_data"},
        {"sq_sig_all", "boolean", "true, false", "false", "ibv_qp_init_attr.sq_sig_all"},
        {"psn", "integer", kPsn, "0", "(the PSN this host publishes and sends from)"}}},
      {"step",
       "/steps/N",
       {{"host", "integer", kHost, "0", "(the host that makes the call)"},
        {"expect_error", "string", "EINVAL, ENOMEM, EFAULT", "success",
         "(the call must fail with this errno)"},
        {"title", "string", "any", "none", "(narration: starts a part titled so in the GUI)"},
        {"explanation", "string", "any", "the scenario's description",
         "(narration: the GUI's text for this part)"},
        {"comment", kNote, "any", "none", "(notes for the reader of the file; ignored)"},
        {"modify_qp", "object", "see modify_qp", "one action required", "ibv_modify_qp"},
        {"post_send", "object", "see post_send", "one action required", "ibv_post_send"},
        {"post_recv", "object", "see post_recv", "one action required", "ibv_post_recv"},
        {"poll_cq", "object", "see poll_cq", "one action required", "ibv_poll_cq"},
        {"exchange", "object", "see exchange", "one action required",
         "(rc_pingpong's TCP exchange of QPN, PSN, GID, address and rkey)"},
        {"run_us", "integer", "0 .. 3600000000", "one action required",
         "(let time pass: simulated, or wall-clock on a device)"},
        {"compare_memory", "object", "see compare_memory", "one action required",
         "(memcmp of two MRs)"}}},
      {"modify_qp",
       "/steps/N/modify_qp",
       {{"qp", "string", "a QP of the host", "required", "ibv_modify_qp qp"},
        {"state", "string", kStates, kNotSet, "ibv_qp_attr.qp_state, IBV_QP_STATE"},
        {"cur_state", "string", kStates, kNotSet, "ibv_qp_attr.cur_qp_state, IBV_QP_CUR_STATE"},
        {"pkey_index", "integer", "0 .. 65535", kNotSet,
         "ibv_qp_attr.pkey_index, IBV_QP_PKEY_INDEX"},
        {"port", "integer", "0 .. 255", kNotSet, "ibv_qp_attr.port_num, IBV_QP_PORT"},
        {"qkey", "integer", kU32, kNotSet, "ibv_qp_attr.qkey, IBV_QP_QKEY"},
        {"access", "array of strings", "REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, LOCAL_WRITE",
         kNotSet, "ibv_qp_attr.qp_access_flags, IBV_QP_ACCESS_FLAGS"},
        {"path_mtu", "integer", "256, 512, 1024, 2048, 4096", kNotSet,
         "ibv_qp_attr.path_mtu (IBV_MTU_*), IBV_QP_PATH_MTU"},
        {"dest_qpn", "integer or string", "0 .. 16777215, peer", kNotSet,
         "ibv_qp_attr.dest_qp_num, IBV_QP_DEST_QPN"},
        {"rq_psn", "integer or string", "0 .. 16777215, peer", kNotSet,
         "ibv_qp_attr.rq_psn, IBV_QP_RQ_PSN"},
        {"sq_psn", "integer or string", "0 .. 16777215, own", kNotSet,
         "ibv_qp_attr.sq_psn, IBV_QP_SQ_PSN"},
        {"av", "object", "see av", kNotSet, "ibv_qp_attr.ah_attr, IBV_QP_AV"},
        {"timeout", "integer", "0 .. 31", kNotSet, "ibv_qp_attr.timeout, IBV_QP_TIMEOUT"},
        {"retry_cnt", "integer", "0 .. 7", kNotSet, "ibv_qp_attr.retry_cnt, IBV_QP_RETRY_CNT"},
        {"rnr_retry", "integer", "0 .. 7", kNotSet, "ibv_qp_attr.rnr_retry, IBV_QP_RNR_RETRY"},
        {"max_rd_atomic", "integer", "0 .. 255", kNotSet,
         "ibv_qp_attr.max_rd_atomic, IBV_QP_MAX_QP_RD_ATOMIC"},
        {"max_dest_rd_atomic", "integer", "0 .. 255", kNotSet,
         "ibv_qp_attr.max_dest_rd_atomic, IBV_QP_MAX_DEST_RD_ATOMIC"},
        {"min_rnr_timer", "integer", "0 .. 31", kNotSet,
         "ibv_qp_attr.min_rnr_timer, IBV_QP_MIN_RNR_TIMER"},
        {"mask", "array of strings",
         "STATE, CUR_STATE, ACCESS_FLAGS, PKEY_INDEX, PORT, QKEY, AV, PATH_MTU, TIMEOUT, "
         "RETRY_CNT, RNR_RETRY, RQ_PSN, MAX_QP_RD_ATOMIC, MIN_RNR_TIMER, SQ_PSN, "
         "MAX_DEST_RD_ATOMIC, DEST_QPN",
         "the attributes given", "ibv_modify_qp attr_mask (IBV_QP_*)"}}},
      {"av",
       "/steps/N/modify_qp/av",
       {{"dgid", "string", "peer", "none", "ibv_qp_attr.ah_attr.grh.dgid"},
        {"dlid", "integer or string", "0 .. 65535, peer", "0", "ibv_qp_attr.ah_attr.dlid"},
        {"hop_limit", "integer", "0 .. 255", "64", "ibv_qp_attr.ah_attr.grh.hop_limit"},
        {"traffic_class", "integer", "0 .. 255", "0", "ibv_qp_attr.ah_attr.grh.traffic_class"},
        {"sl", "integer", "0 .. 15", "0", "ibv_qp_attr.ah_attr.sl"}}},
      {"post_send",
       "/steps/N/post_send",
       {{"qp", "string", "a QP of the host", "required", "ibv_post_send qp"},
        {"wr_id", "integer", kU64, "0", "ibv_send_wr.wr_id"},
        {"opcode", "string",
         "SEND, SEND_WITH_IMM, SEND_WITH_INV, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ, "
         "ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD",
         "required", "ibv_send_wr.opcode (IBV_WR_*)"},
        {"sge", "array of objects", "see sge", "[] (no data)", "ibv_send_wr.sg_list, num_sge"},
        {"signaled", "boolean", "true, false", "true", "ibv_send_wr.send_flags IBV_SEND_SIGNALED"},
        {"inline", "boolean", "true, false", "false", "ibv_send_wr.send_flags IBV_SEND_INLINE"},
        {"fence", "boolean", "true, false", "false", "ibv_send_wr.send_flags IBV_SEND_FENCE"},
        {"solicited", "boolean", "true, false", "false",
         "ibv_send_wr.send_flags IBV_SEND_SOLICITED"},
        {"imm", "integer", kU32, "0", "ibv_send_wr.imm_data"},
        {"invalidate_rkey", "integer", kU32, "0", "ibv_send_wr.invalidate_rkey"},
        {"remote_offset", "integer", kU64, "none",
         "ibv_send_wr.wr.rdma (or wr.atomic) remote_addr = the peer's published MR + offset, "
         "rkey = its rkey"},
        {"rkey", "integer", kU32, "with remote_offset: the peer's rkey, else 0",
         "ibv_send_wr.wr.rdma.rkey"},
        {"compare_add", "integer", kU64, "0", "ibv_send_wr.wr.atomic.compare_add"},
        {"swap", "integer", kU64, "0", "ibv_send_wr.wr.atomic.swap"},
        {"remote_qkey", "integer", kU32, "0", "ibv_send_wr.wr.ud.remote_qkey"},
        {"ud_peer", "boolean", "true, false", "false",
         "ibv_send_wr.wr.ud.ah and remote_qpn: the peer's published QP"}}},
      {"sge",
       "/steps/N/post_send/sge/N",
       {{"mr", "string", "an MR of the host", "required", "ibv_sge.lkey (the MR's lkey)"},
        {"offset", "integer", kU64, "0", "ibv_sge.addr = the MR's address + offset"},
        {"length", "integer", "0 .. 2147483648", "required", "ibv_sge.length"}}},
      {"post_recv",
       "/steps/N/post_recv",
       {{"qp", "string", "a QP of the host", "required", "ibv_post_recv qp"},
        {"wr_id", "integer", kU64, "0", "ibv_recv_wr.wr_id"},
        {"sge", "array of objects", "see sge", "required", "ibv_recv_wr.sg_list, num_sge"}}},
      {"poll_cq",
       "/steps/N/poll_cq",
       {{"cq", "string", "a CQ of the host", "required", "ibv_poll_cq cq"},
        {"count", "integer", "0 .. 4096", "1", "(completions to wait for)"},
        {"timeout_ms", "integer", "0 .. 3600000", "1000", "(how long to wait for them)"},
        {"expect", "array of objects", "see completion", "none (not compared)", ""}}},
      {"completion",
       "/steps/N/poll_cq/expect/N",
       {{"wr_id", "integer", kU64, "not compared", "ibv_wc.wr_id"},
        {"status", "string",
         "SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, REM_ACCESS_ERR, "
         "RETRY_EXC_ERR, RNR_RETRY_EXC_ERR, ... (every IBV_WC_* status)",
         "not compared", "ibv_wc.status (IBV_WC_*)"},
        {"opcode", "string",
         "SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, RECV, "
         "RECV_RDMA_WITH_IMM",
         "not compared", "ibv_wc.opcode (IBV_WC_*)"},
        {"byte_len", "integer", kU32, "not compared", "ibv_wc.byte_len"},
        {"imm", "integer", kU32, "not compared", "ibv_wc.imm_data"}}},
      {"exchange",
       "/steps/N/exchange",
       {{"from", "integer", kHost, "required", "(the host that publishes)"},
        {"qp", "string", "a QP of that host", "required",
         "(its ibv_qp.qp_num, its psn, GID and LID)"},
        {"mr", "string", "an MR of that host", "none", "(its address and ibv_mr.rkey)"}}},
      {"compare_memory",
       "/steps/N/compare_memory",
       {{"host_a", "integer", kHost, "required", ""},
        {"mr_a", "string", "an MR of host_a", "required", ""},
        {"offset_a", "integer", kU64, "0", ""},
        {"host_b", "integer", kHost, "required", ""},
        {"mr_b", "string", "an MR of host_b", "required", ""},
        {"offset_b", "integer", kU64, "0", ""},
        {"length", "integer", "inside both MRs", "required", ""}}},
  };
}

}  // namespace

const std::vector<FormatObject>& scenarioFormat() {
  static const std::vector<FormatObject> format = build();
  return format;
}

const FormatObject* formatObject(std::string_view name) {
  const auto& f = scenarioFormat();
  const auto it =
      std::find_if(f.begin(), f.end(), [&](const FormatObject& o) { return o.name == name; });
  return it == f.end() ? nullptr : &*it;
}

const std::vector<std::string_view>& stepKinds() {
  static const std::vector<std::string_view> kinds = {
      "modify_qp", "post_send", "post_recv", "poll_cq", "exchange", "run_us", "compare_memory"};
  return kinds;
}

}  // namespace rdmascope::verbs_backend
