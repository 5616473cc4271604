#pragma once
// The connection manager of the simulated librdmacm: the IBTA CM state machine (REQ/REP/RTU,
// REJ, DREQ/DREP, SIDR_REQ/SIDR_REP) as Linux's ib_cm runs it for rdma_cm, with the MADs
// retransmitted on the CM response timeout. It knows nothing of verbs, rdma_cm_ids or the NIC:
// the library feeds it received MADs and the clock, and takes from it the MADs to send and the
// upcalls to turn into rdma_cm events. Not thread safe: the library holds its lock around it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/mad_builder.h"

namespace rdmascope::simdev::rdmacm {

using Gid = packets::Gid;
using Clock = std::chrono::steady_clock;

/// rdma_cm's CM response timeout (CMA_CM_RESPONSE_TIMEOUT 20): 4.096 us x 2^20, about 4.3 s.
inline constexpr std::chrono::nanoseconds kCmResponseTimeout{4096LL << 20};

/// IBTA reject reasons and SIDR statuses the library uses.
inline constexpr std::uint16_t kRejInvalidServiceId = 8;
inline constexpr std::uint16_t kRejStaleConnection = 10;
inline constexpr std::uint16_t kRejConsumer = 28;
inline constexpr std::uint8_t kSidrUnsupported = 1;
inline constexpr std::uint8_t kSidrRejected = 2;

/// A MAD to put on the wire: to the GSI of the host with GID `dgid`.
struct OutgoingMad {
  Gid dgid{};
  packets::IbPacket packet;
  std::string why;
};

/// What the CM tells its owner (each becomes an rdma_cm event).
struct CmUpcall {
  enum class Kind {
    ConnectRequest,   ///< a REQ for a listener: message is the REQ
    SidrRequest,      ///< a SIDR_REQ for a listener: message is the SIDR_REQ
    ConnectResponse,  ///< the REP to our REQ: message is the REP
    Established,      ///< the RTU to our REP
    Rejected,         ///< a REJ: message is the REJ
    SidrResolved,     ///< the SIDR_REP to our SIDR_REQ (any status): message is the SIDR_REP
    Unreachable,      ///< no answer after every retry (status -ETIMEDOUT)
    Disconnected,     ///< a DREQ arrived, or our DREQ was answered or timed out
    TimewaitExit,     ///< the connection left timewait
  };
  Kind kind;
  std::uint32_t conn = 0;  ///< the local communication ID (for SIDR: the request ID)
  void* owner = nullptr;   ///< the connection's owner; for requests, the listener's
  int status = 0;
  Gid peer{};
  std::optional<packets::CmMessage> message;
};

class CmEngine {
 public:
  struct Config {
    /// How long a MAD waits for its answer before it is sent again.
    std::chrono::nanoseconds responseTimeout = kCmResponseTimeout;
    int maxRetries = 15;  ///< CMA_MAX_CM_RETRIES
    /// How long a closed connection stays in timewait, answering a resent DREQ (longer than
    /// the response timeout, after which the peer resends it).
    std::chrono::nanoseconds timewait = 2 * kCmResponseTimeout;
    /// How long a REQ for a service nothing listens on waits for a listener before it is
    /// rejected (reason 8). The kernel's CM rejects at once; a program that listens again just
    /// after its peer connects (perftest -R's second connection) then races the peer, which a
    /// simulated host, sharing a loaded CPU, loses more often than a kernel does.
    std::chrono::nanoseconds listenGrace = std::chrono::milliseconds(500);
    std::function<std::uint32_t()> random;  ///< communication IDs
    /// The GID of the host owning an IP address (SIDR answers go to the requester's address).
    std::function<std::optional<Gid>(const packets::IpAddress&)> gidOfIp;
  };

  explicit CmEngine(Config config);

  /// Starts answering REQs and SIDR_REQs for `serviceId`; false when it is taken.
  bool listen(std::uint64_t serviceId, void* owner);
  void unlisten(std::uint64_t serviceId);

  /// Active side: sends the REQ (its localCommId is filled in) and returns the connection.
  std::uint32_t connect(const Gid& peer, packets::CmReq req, void* owner, Clock::time_point now);
  /// Active side of a UD id: sends a SIDR_REQ (its requestId is filled in).
  std::uint32_t resolveSidr(const Gid& peer, packets::CmSidrReq req, void* owner,
                            Clock::time_point now);
  /// Passive side: the connection created by a ConnectRequest upcall now belongs to `owner`.
  void adopt(std::uint32_t conn, void* owner);
  /// Passive side: answers the REQ (localCommId/remoteCommId are filled in).
  bool accept(std::uint32_t conn, packets::CmRep rep, Clock::time_point now);
  /// Active side: the RTU after the REP.
  bool establish(std::uint32_t conn, Clock::time_point now);
  /// Either side: REJ (a received REQ or REP), or for a SIDR request a SIDR_REP with status
  /// kSidrRejected.
  bool reject(std::uint32_t conn, std::uint16_t reason, std::span<const std::uint8_t> privateData,
              Clock::time_point now);
  /// Passive side of a UD id: the SIDR_REP.
  bool answerSidr(std::uint32_t conn, packets::CmSidrRep rep, Clock::time_point now);
  /// DREQ on an established connection, or the DREP to a DREQ received.
  bool disconnect(std::uint32_t conn, Clock::time_point now);
  /// The owner is gone: an established connection is disconnected, a request rejected, and the
  /// connection finishes on its own without upcalls.
  void release(std::uint32_t conn, Clock::time_point now);
  /// True while the connection still waits for an answer to a MAD it sent.
  bool waiting(std::uint32_t conn) const;
  /// Until when the process should stay to answer a DREQ or SIDR_REQ sent again, after it
  /// answered one (the DREP or SIDR_REP may have been lost, and the kernel's CM, which outlives
  /// a program, would answer the peer's retransmission); nullopt when nothing waits for that.
  std::optional<Clock::time_point> lingerUntil() const;
  /// The remote communication ID (0 before the REQ/REP brought it).
  std::uint32_t remoteId(std::uint32_t conn) const;

  /// A MAD received on the GSI.
  void receive(std::span<const std::uint8_t> mad, Clock::time_point now);
  /// Resends what timed out and ends timewaits.
  void tick(Clock::time_point now);
  /// When tick() next has something to do.
  std::optional<Clock::time_point> nextDeadline() const;

  std::vector<OutgoingMad> takeOutbox();
  std::vector<CmUpcall> takeUpcalls();

  enum class State {
    ReqSent,
    ReqRcvd,
    RepSent,
    RepRcvd,
    Established,
    DreqSent,
    DreqRcvd,
    TimeWait,
    SidrReqSent,
    SidrReqRcvd,
    SidrRepSent,
    Closed,
  };
  /// The connection's state (Closed when unknown).
  State state(std::uint32_t conn) const;

 private:
  struct Connection {
    std::uint32_t localId = 0;
    std::uint32_t remoteId = 0;
    Gid peer{};
    std::uint64_t tid = 0;  ///< the REQ's transaction: REQ, REP, RTU, REJ
    State state = State::Closed;
    void* owner = nullptr;
    bool active = false;
    std::optional<packets::CmMessage> lastSent;  ///< what a duplicate or a timeout resends
    std::uint64_t lastTid = 0;
    std::string lastWhy;
    bool awaiting = false;  ///< lastSent waits for an answer
    Clock::time_point deadline{};
    int retriesLeft = 0;
    std::uint32_t remoteQpn = 0;
    bool answeredDreq = false;           ///< timewait began with our DREP
    Clock::time_point requestArrived{};  ///< when the peer's DREQ or SIDR_REQ (last) came
  };

  Connection* find(std::uint32_t conn);
  const Connection* find(std::uint32_t conn) const;
  std::uint32_t newId();
  void send(Connection& c, packets::CmMessage m, std::uint64_t tid, std::string why,
            bool awaitAnswer, Clock::time_point now);
  void sendOnce(const Gid& peer, const packets::CmMessage& m, std::uint64_t tid, std::string why);
  void upcall(CmUpcall::Kind kind, const Connection& c, int status = 0,
              std::optional<packets::CmMessage> m = std::nullopt);
  void enterTimewait(Connection& c, Clock::time_point now);

  void onReq(const packets::CmReq& m, std::uint64_t tid, Clock::time_point now);
  void onRep(const packets::CmRep& m, Clock::time_point now);
  void onRtu(const packets::CmRtu& m);
  void onRej(const packets::CmRej& m, Clock::time_point now);
  void onMra(const packets::CmMra& m, Clock::time_point now);
  void onDreq(const packets::CmDreq& m, std::uint64_t tid, Clock::time_point now);
  void onDrep(const packets::CmDrep& m, Clock::time_point now);
  void onSidrReq(const packets::CmSidrReq& m, std::uint64_t tid, Clock::time_point now);
  void onSidrRep(const packets::CmSidrRep& m);

  Config config_;
  std::map<std::uint32_t, Connection> conns_;
  std::map<std::uint64_t, void*> listeners_;
  /// REQs that found no listener, waiting for one until `rejectAt` (Config::listenGrace).
  struct UnheardReq {
    packets::CmReq req;
    std::uint64_t tid = 0;
    Clock::time_point rejectAt{};
  };
  std::vector<UnheardReq> unheard_;
  void rejectUnheard(const packets::CmReq& m, std::uint64_t tid);
  std::vector<OutgoingMad> outbox_;
  std::vector<CmUpcall> upcalls_;
};

/// The name of a CM message for logs ("REQ", "SIDR_REP", ...).
const char* cmMessageName(const packets::CmMessage& m);

}  // namespace rdmascope::simdev::rdmacm
