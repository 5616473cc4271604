#pragma once
// A queue pair with rxe's three engines: requester (rxe_req.c, requester.cpp), completer
// (rxe_comp.c, completer.cpp) and responder (rxe_resp.c, responder.cpp), run as simulator events.

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "rdmascope/sim/host.h"
#include "rdmascope/sim/qp_state_machine.h"
#include "rdmascope/sim/simulator.h"
#include "rdmascope/sim/verbs_types.h"
#include "wire_format.h"

namespace rdmascope::sim {

enum class WqeState : std::uint8_t { Posted, Processing, Pending, Done, Error };
std::string_view toString(WqeState s);

/// Progress through a scatter/gather list (rxe_dma_info).
struct DmaState {
  std::vector<Sge> sges;
  std::uint32_t length = 0;
  std::uint32_t resid = 0;
  std::uint32_t curSge = 0;
  std::uint32_t sgeOffset = 0;
  void reset() {
    resid = length;
    curSge = 0;
    sgeOffset = 0;
  }
};

struct SendWqe {
  SendWr wr;
  WqeState state = WqeState::Posted;
  WcStatus status = WcStatus::Success;
  std::uint32_t firstPsn = 0;
  std::uint32_t lastPsn = 0;
  std::uint64_t iova = 0;
  DmaState dma;
  std::vector<std::uint8_t> inlineData;
  bool hasRdAtomic = false;
  std::uint32_t mask = 0;  ///< what kind of WR (see wrMask in qp.cpp)
};

struct RecvWqe {
  RecvWr wr;
  DmaState dma;
};

/// A shared receive queue (rxe_srq): QPs created with it take their receive WQEs from here.
struct Srq {
  std::uint32_t id = 0;
  std::uint32_t pd = 0;
  std::uint32_t maxWr = 0;  ///< capacity (2^n - 1, as rxe's queue)
  std::uint32_t maxSge = 0;
  std::uint32_t limit = 0;  ///< armed limit; 0 when not armed
  std::deque<RecvWqe> wqes;
};

/// Builds a receive WQE (the DMA state over its SGEs) from a receive WR.
RecvWqe makeRecvWqe(const RecvWr& wr);

/// A responder resource: a READ or atomic remembered so a duplicate is replayed (resp_res).
struct RespResource {
  std::uint32_t type = 0;  ///< 0 free, kRead or kAtomic
  bool replay = false;
  std::uint32_t firstPsn = 0, lastPsn = 0, curPsn = 0;
  bool started = false;  ///< a response was sent (rdatm_res_state_next)
  std::uint64_t va = 0, vaOrg = 0;
  std::uint32_t resid = 0, length = 0, rkey = 0;
  std::uint64_t origVal = 0;
  std::uint8_t atomicOpcode = 0;
};

class Network;

/// Why a DMA through keys failed (copy_data, a READ reply's rkey), kept small and plain on the
/// data path; cause() turns it into typed trace arguments when tracing.
struct DmaFault {
  Reason reason = Reason::None;
  std::uint32_t key = 0;
  std::uint64_t requested = 0, available = 0;
  std::uint64_t sgeAddress = 0, sgeLength = 0, mrAddress = 0, mrLength = 0;
  TraceCause cause() const;
};

class Qp : public EventTarget {
 public:
  Qp(Host& host, std::uint32_t qpn, std::uint32_t pd, const QpInitAttr& init, Srq* srq);
  ~Qp();

  std::uint32_t qpn() const { return qpn_; }
  QpType type() const { return type_; }
  QpState state() const { return state_; }
  std::uint32_t pd() const { return pd_; }
  const QpInitAttr& initAttr() const { return init_; }
  const QpAttr& attr() const { return attr_; }
  /// What ibv_query_qp reports (rxe_qp_to_attr).
  QpAttr queryAttr() const;
  std::uint32_t srqId() const { return srq_ ? srq_->id : 0; }

  VerbsStatus modify(const QpAttr& attr, unsigned mask);
  VerbsStatus postSend(const SendWr& wr);
  VerbsStatus postRecv(const RecvWr& wr);
  QpView view() const;

  /// A packet for this QP arrived (already parsed and ICRC-checked).
  void receive(const ParsedPacket& packet);
  /// Moves the QP to ERR and flushes (rxe_qp_error); `why` goes into the trace.
  void toError(const TraceCause& why);
  /// The pending retransmit timer runs out now (FaultConfig::TimerFire): as rxe's does when
  /// a timer an earlier message armed expires in the middle of a later one.
  void expireRetransmitTimer(std::uint64_t afterRequests);

  void onEvent(std::uint32_t code, std::uint64_t arg) override;

  /// destroy_qp: stops the engines; events already scheduled for this object do nothing, and
  /// the last of them hands the object back to Host::releaseQp.
  void destroy();
  /// Events scheduled for this QP that have not run yet (a destroyed QP is freed at 0).
  std::uint32_t pendingEvents() const { return pendingEvents_; }

 private:
  enum Code : std::uint32_t {
    kRunRequester = 1,
    kRetransmitTimer,
    kRnrTimer,
    kRunCompleter,
    kFlush,
    kResumeRead,
    kRelease,  ///< a destroyed QP's last event
  };
  enum class Comp;
  enum class R;
  struct QueuedPacket {
    ParsedPacket packet;
    std::vector<std::uint8_t> payload;
  };

  Simulator& sim() const;
  bool tracing() const;
  /// Schedules onEvent(code) after `delay`, counting it in pendingEvents_.
  void post(SimTime delay, std::uint32_t code);
  TraceEvent event(TraceKind kind, Narrative what) const;
  TraceEvent memoryEvent(bool write, std::uint64_t addr, std::uint32_t length,
                         Narrative what) const;
  void setState(QpState s, const TraceCause& why);
  void scheduleRequester(SimTime delay = SimTime{});
  void scheduleCompleter();
  std::uint32_t mtu() const { return mtuBytes(attr_.pathMtu); }
  SimTime retransmitTimeout() const;
  void armRetransmit();
  void kickRetransmit();

  static void advanceDma(DmaState& d, std::uint32_t len);
  bool copyData(DmaState& d, std::uint8_t* buf, std::uint32_t len, bool toMemory, DmaFault* error,
                const std::uint8_t** reference);

  // requester
  void runRequester();
  void reqRetry();
  SendWqe* reqNextWqe();
  int nextOpcode(const SendWqe& wqe, bool fits) const;
  bool inflightFull();

  // completer
  void runCompleter(const ParsedPacket* in);
  Comp checkPsn(const PacketDesc& pkt, SendWqe& wqe);
  Comp checkAck(const PacketDesc& pkt, SendWqe& wqe);
  void doCompleteSend(SendWqe& wqe, Reason why, const PacketDesc* ack = nullptr);
  void flushQueues();

  // responder
  void responderRun(const ParsedPacket* first);
  void sendResponse(PacketDesc& k, const TraceCause* why);
  void sendAck(std::uint8_t opcode, std::uint8_t syndrome, std::uint32_t psn,
               const RespResource* res, const TraceCause& why);
  bool readReply(RespResource& res, DmaFault* error);
  void completeRecv(const ParsedPacket* in, WcStatus status, const TraceCause& why);
  /// rxe's check_resource for a request that needs a receive WQE: the RQ's head, or a WQE
  /// taken from the SRQ (raising the limit event). False: none (RNR).
  bool takeRecvWqe();
  /// The receive WQE in progress (valid when resp_.haveWqe).
  RecvWqe& curRecv() { return srq_ ? srqWqe_ : rq_.front(); }
  /// A message in progress is abandoned (UC class D1): its WQE starts over.
  void restartRecv();
  RespResource* findResource(std::uint32_t psn);
  int prepareResource(const PacketDesc& pkt, std::uint32_t type);
  bool scatter(RecvWqe& wqe, const std::uint8_t* data, std::uint32_t len, bool* noSpace);

  Host& host_;
  Network& net_;
  std::uint32_t qpn_;
  std::uint32_t pd_;
  QpType type_;
  QpInitAttr init_;
  QpAttr attr_;
  QpState state_ = QpState::Reset;

  std::deque<SendWqe> sq_;
  std::uint64_t sqHead_ = 0;  ///< absolute index of sq_.front()
  std::deque<RecvWqe> rq_;
  Srq* srq_ = nullptr;           ///< the SRQ (it outlives the QP: destroy_srq is EBUSY while used)
  RecvWqe srqWqe_;               ///< the WQE taken from the SRQ (rxe's resp.srq_wqe)
  bool lastWqePending_ = false;  ///< IBV_EVENT_QP_LAST_WQE_REACHED is due at the next flush

  struct Req {
    std::uint32_t psn = 0;
    int opcode = -1;
    std::uint64_t wqeIndex = 0;
    int noackPkts = 0;
    bool needRetry = false;
    bool waitForRnrTimer = false;  ///< rxe 6.x: no retry flow until the RNR timer fired
    bool waitPsn = false;
    bool waitFence = false;
    bool needRdAtomic = false;
    int rdAtomic = 0;
    bool scheduled = false;
    bool needSkb = false;
  } req_;
  struct Comp_ {
    std::uint32_t psn = 0;
    int opcode = -1;
    int retryCnt = 0;
    int rnrRetry = 0;
    bool startedRetry = false;
    bool timeoutRetry = false;
    bool timeout = false;
    bool scheduled = false;
  } comp_;
  struct Resp {
    std::uint32_t psn = 0;
    std::uint32_t ackPsn = 0;
    int opcode = -1;
    std::uint32_t msn = 0;
    bool sentPsnNak = false;
    bool dropMsg = false;
    bool haveWqe = false;  ///< rq_.front() is the WQE in progress
    std::uint64_t va = 0;
    std::uint32_t rkey = 0;
    std::uint32_t resid = 0;
    std::uint32_t length = 0;
    const MemoryRegionInfo* mr = nullptr;
    bool streamDma = true;  ///< the MR is large: its payload writes bypass the cache
    std::vector<RespResource> resources;
    std::size_t resHead = 0;
    int resIndex = -1;  ///< resource of the READ reply or atomic in progress (qp->resp.res)
    bool readScheduled = false;
  } resp_;
  std::deque<QueuedPacket> reqPkts_;  ///< requests waiting behind a long READ reply

  // timers: a deadline and the generation of the event that is pending for it
  struct Timer {
    SimTime deadline = SimTime::max();
    SimTime eventAt = SimTime::max();
    bool armed() const { return deadline != SimTime::max(); }
  };
  Timer retransmit_;
  Timer rnr_;

  // in-flight frames of this QP's requester in the NIC queue (rxe skb_out)
  std::deque<SimTime> txDone_;
  std::uint32_t ipId_ = 0;
  WireAddress addr_;
  std::uint32_t pendingEvents_ = 0;
  bool destroyed_ = false;
};

}  // namespace rdmascope::sim
