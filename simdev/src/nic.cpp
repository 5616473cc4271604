#include "rdmascope/simdev/nic.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <unordered_map>

#include "rdmascope/simdev/fabric_protocol.h"
#include "rdmascope/simdev/frame_rings.h"
#include "rdmascope/simdev/host_state.h"

namespace rdmascope::simdev {

namespace {

std::string programName() {
  char buf[256] = {};
  const int fd = ::open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "?";
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  std::string name(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!name.empty() && name.back() == '\n')
    name.pop_back();
  return name.empty() ? "?" : name;
}

bool sendAll(int fd, const std::vector<std::uint8_t>& message) {
  for (;;) {
    if (::send(fd, message.data(), message.size(), MSG_NOSIGNAL) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

}  // namespace

/// Frames leave through the fabric's shared memory (frame_rings.h), straight into the
/// destination host's ring; while the fabric is paused they go through its socket instead,
/// where the switch holds them.
class FabricPort final : public sim::WirePort {
 public:
  void send(int, std::span<const std::uint8_t> frame) override {
    if (fd < 0 || !alive->load(std::memory_order_relaxed)) return;
    if (!rings || rings->paused()) {
      sendToFabric(frame);
      return;
    }
    const bool mirrored = rings->mirror();
    const std::int64_t ns = mirrored ? unixTimeNs() : 0;
    const int to = destinationHost(frame, rings->hosts());
    const bool routable = to > 0 && rings->attached(to);
    const bool lost = routable && rings->lossRate() > 0 && lose(to, frame);
    if (mirrored) mirror(frame, ns, lost || !routable);
    if (!routable) {
      rings->count(self, 1, 0, 0, 1);
      return;
    }
    if (lost) {
      rings->count(self, 1, 0, 1, 0);
      return;
    }
    // A full ring is a full switch queue: wait a little for the receiver, then drop (waiting
    // longer could deadlock two hosts whose rings to each other are both full).
    bool put = rings->push(self, to, frame, ns);
    for (int spin = 0; !put && spin < 2000; ++spin) {
      sched_yield();
      put = rings->push(self, to, frame, ns);
    }
    rings->count(self, 1, put ? 1 : 0, put ? 0 : 1, 0);
    if (put && !due[static_cast<std::size_t>(to)]) {
      due[static_cast<std::size_t>(to)] = true;
      dueHosts.push_back(to);
    }
  }

  /// After a verbs call or a pass of the progress thread: wakes each receiver that got a frame
  /// and sleeps (once per batch, not per frame).
  void announce() {
    for (const int to : dueHosts) {
      due[static_cast<std::size_t>(to)] = false;
      if (rings->announce(to)) wake(static_cast<std::uint8_t>(to));
    }
    dueHosts.clear();
  }

  int fd = -1;
  int self = 0;
  std::atomic<bool>* alive = nullptr;
  FrameRings* rings = nullptr;
  std::uint64_t seed = 0;
  std::size_t bthOffset = 42;   ///< where the BTH starts in this wire format's frames
  std::array<bool, 256> due{};  ///< hosts given a frame since the last announce()
  std::vector<int> dueHosts;

 private:
  /// The fabric's loss, drawn from one random stream per destination QP (host and BTH
  /// destination QPN): which frames of a connection are lost depends on the seed and on that
  /// connection's own frames only, not on how other connections' frames interleave with them,
  /// so a seed gives the same losses run after run.
  bool lose(int to, std::span<const std::uint8_t> frame) {
    std::uint64_t key = static_cast<std::uint64_t>(to) << 24;
    if (frame.size() >= bthOffset + 8) {
      key |= static_cast<std::uint64_t>(frame[bthOffset + 5]) << 16 |
             static_cast<std::uint64_t>(frame[bthOffset + 6]) << 8 | frame[bthOffset + 7];
    }
    auto it = streams.find(key);
    if (it == streams.end()) {
      it = streams.emplace(key, std::mt19937_64(seed ^ (key * 0x9e3779b97f4a7c15ull))).first;
    }
    return std::uniform_real_distribution<double>(0, 1)(it->second) < rings->lossRate();
  }

  std::unordered_map<std::uint64_t, std::mt19937_64> streams;

  void sendToFabric(std::span<const std::uint8_t> frame) {
    std::uint8_t type = static_cast<std::uint8_t>(MessageType::Frame);
    iovec iov[2] = {{&type, 1}, {const_cast<std::uint8_t*>(frame.data()), frame.size()}};
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = 2;
    for (;;) {
      if (::sendmsg(fd, &msg, MSG_NOSIGNAL) >= 0) return;
      if (errno == EINTR) continue;
      if (errno == EPIPE || errno == ECONNRESET || errno == ENOTCONN) {
        alive->store(false);
      }
      return;  // the frame is lost, as on a link that went down
    }
  }

  /// The copy for the fabric's pcap and observers. It is never dropped: when the mirror ring
  /// is full this waits for the fabric, which waits for nobody.
  void mirror(std::span<const std::uint8_t> frame, std::int64_t ns, bool lost) {
    for (int spin = 0; !rings->push(self, 0, frame, ns, lost); ++spin) {
      if (spin == 0 && rings->announce(0)) wake(0);
      if (spin > 200000 || !alive->load(std::memory_order_relaxed)) return;
      sched_yield();
    }
    if (rings->mirrorFill(self) > 0.5 && rings->announce(0)) wake(0);
  }

  void wake(std::uint8_t host) {
    const std::uint8_t msg[2] = {static_cast<std::uint8_t>(MessageType::Wake), host};
    while (::send(fd, msg, sizeof msg, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {
    }
  }
};

struct Nic::Impl {
  int fd = -1;
  int wakeFd = -1;
  std::mutex mu;
  std::atomic<bool> alive{true};
  FabricPort port;
  std::unique_ptr<FrameRings> rings;
  int ringsFd = -1;
  std::unique_ptr<sim::Network> net;
  /// When a frame last arrived (steady clock ns): a NIC that has seen none for a while lets
  /// its progress thread sleep until woken, one that is busy keeps looking.
  std::atomic<std::int64_t> lastArrival{0};
  /// Whether the progress thread's next pass reads the socket (a spinning thread reads it
  /// every 100 us instead of making a system call per pass).
  bool checkSocket = true;
  /// When a thread of the program last began a verbs call (steady clock ns).
  std::atomic<std::int64_t> lastAppCall{0};
  std::chrono::steady_clock::time_point start;
  std::function<void(std::uint32_t)> listener;
  SniffListener sniffListener;
  bool sniffing = false;
  /// When the progress thread plans to wake for the next timer (picoseconds of sim time).
  std::atomic<std::int64_t> wakeAt{INT64_MAX};
  std::vector<std::uint8_t> rx = std::vector<std::uint8_t>(kMaxMessage);
  std::thread progress;

  // Observation and stepping (fabric_observer.h); guarded by holdMu, except `observed`.
  std::atomic<bool> observed{false};
  std::mutex holdMu;
  std::condition_variable holdCv;
  bool held = false;
  int stepCalls = 0;
  std::chrono::steady_clock::duration pausedTotal{};
  std::chrono::steady_clock::time_point heldSince;
  // The last state sent to the fabric; a newer one is due when `stateDirty`.
  bool stateDirty = false;
  std::chrono::steady_clock::time_point stateSent;
  std::uint64_t eventsAtState = 0;  ///< simulator events run when the last state was taken

  /// Simulated time: the monotonic clock since attach, standing still while held.
  sim::SimTime now() {
    std::lock_guard g(holdMu);
    const auto at = held ? heldSince : std::chrono::steady_clock::now();
    return sim::SimTime::ns(
        std::chrono::duration_cast<std::chrono::nanoseconds>(at - start - pausedTotal).count());
  }
};

Nic::Nic() : impl_(std::make_unique<Impl>()) {}

Nic::~Nic() = default;

Nic* Nic::get(std::string& error) {
  static std::once_flag once;
  static Nic* nic = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    auto* n = new Nic();  // lives as long as the process: programs may use verbs at exit
    if (n->attach(failure)) {
      nic = n;
    } else {
      delete n;
    }
  });
  if (!nic) error = failure;
  return nic;
}

bool Nic::attach(std::string& error) {
  const char* path = std::getenv(kFabricEnv);
  const char* hostText = std::getenv(kHostEnv);
  if (!path || !*path) {
    error = fmt::format(
        "rdmascope: {} is not set: start the program with `rdmascope-cli exec --host N -- ...`",
        kFabricEnv);
    return false;
  }
  char* end = nullptr;
  const long host = hostText ? std::strtol(hostText, &end, 10) : 0;
  if (!hostText || !*hostText || *end || host < 1 || host > 254) {
    error = fmt::format("rdmascope: {}={} is not a host number (1..254)", kHostEnv,
                        hostText ? hostText : "");
    return false;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof addr.sun_path) {
    error = fmt::format("rdmascope: the fabric socket path {} is too long", path);
    return false;
  }
  std::strcpy(addr.sun_path, path);
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    error = fmt::format("rdmascope: no fabric at {} ({}): start one with `rdmascope-cli fabric`",
                        path, std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return false;
  }
  const char* sniffText = std::getenv(kSniffEnv);
  const bool sniff = sniffText && *sniffText && std::strcmp(sniffText, "0") != 0;
  const nlohmann::json hello = {{"host", host},
                                {"pid", static_cast<long>(::getpid())},
                                {"program", programName()},
                                {"sniff", sniff}};
  if (!sendAll(fd, encodeMessage(MessageType::Attach, hello))) {
    error =
        fmt::format("rdmascope: cannot talk to the fabric at {}: {}", path, std::strerror(errno));
    ::close(fd);
    return false;
  }
  std::vector<std::uint8_t> buf(kMaxMessage);
  int shmFd = -1;
  const long n = receiveWithFd(fd, buf, 10000, shmFd);
  const auto msg =
      n > 0 ? decodeMessage(std::span(buf.data(), static_cast<std::size_t>(n))) : std::nullopt;
  std::string why;
  const auto body = msg ? jsonBody(*msg, why) : std::nullopt;
  if (!msg || !body) {
    error = fmt::format("rdmascope: the fabric at {} did not answer", path);
    ::close(fd);
    return false;
  }
  if (msg->type == MessageType::Refused) {
    const auto e = body->find("error");
    error = "rdmascope: " +
            (e != body->end() && e->is_string() ? e->get<std::string>() : std::string("refused"));
    ::close(fd);
    return false;
  }
  auto info = msg->type == MessageType::Welcome ? fabricInfoFromJson(*body, why) : std::nullopt;
  auto rings = info && shmFd >= 0 ? FrameRings::map(shmFd, why) : nullptr;
  if (info && shmFd < 0) why = "the fabric's welcome came without its shared memory";
  if (!info || !rings || rings->hosts() != static_cast<int>(info->hosts.size())) {
    error = "rdmascope: " + (why.empty() ? std::string("unexpected answer from the fabric") : why);
    ::close(fd);
    if (shmFd >= 0) ::close(shmFd);
    return false;
  }
  info_ = std::move(*info);

  Impl& m = *impl_;
  m.rings = std::move(rings);
  m.ringsFd = shmFd;
  m.sniffing = sniff;
  // frames sent to the program this host had before (a sniffer takes none: they are the host's)
  if (!sniff) m.rings->discard(info_.self);
  m.fd = fd;
  m.wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  m.port.fd = sniff ? -1 : fd;  // a sniffer's NIC sends nothing
  m.port.alive = &m.alive;
  m.port.self = info_.self;
  m.port.rings = m.rings.get();
  m.port.seed = m.rings->seed() ^ (0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(info_.self));
  m.port.bthOffset = info_.wire == sim::WireFormat::RoceV2Ipv4   ? 14 + 20 + 8
                     : info_.wire == sim::WireFormat::RoceV2Ipv6 ? 14 + 40 + 8
                                                                 : 14 + 40;  // RoCEv1: GRH
  sim::NetworkConfig cfg;
  cfg.seed = static_cast<std::uint64_t>(::getpid());
  cfg.localHosts = 1;
  cfg.port = &m.port;
  cfg.wire = info_.wire;
  cfg.link.mtu = info_.linkMtu;
  cfg.link.latency = sim::SimTime();
  cfg.link.gbps = 1e9;  // the fabric paces nothing: frames leave as the program makes them
  const FabricHost& me = info_.me();
  cfg.hosts[0].name = me.name;
  cfg.hosts[0].mac = me.mac;
  cfg.hosts[0].ipv4 = me.ipv4;
  cfg.hosts[0].ipv6 = me.ipv6;
  cfg.hosts[0].lid = static_cast<std::uint16_t>(me.number);
  cfg.hosts[0].processMemory = true;
  m.start = std::chrono::steady_clock::now();
  m.net = std::make_unique<sim::Network>(cfg);
  m.net->host(0).setCompletionHook([this](std::uint32_t cq) {
    if (impl_->listener) impl_->listener(cq);
  });
  m.progress = std::thread([this] { progressLoop(); });
  m.progress.detach();
  return true;
}

std::uint32_t Nic::activeMtu() const {
  return impl_->net->activeMtu();
}

bool Nic::gid(int index, sim::Gid& out) const {
  const sim::Host& h = impl_->net->host(0);
  if (index < 0 || !h.gidValid(static_cast<unsigned>(index))) return false;
  out = h.gidAt(static_cast<unsigned>(index));
  return true;
}

sim::Host& Nic::host() {
  return impl_->net->host(0);
}

void Nic::setCompletionListener(std::function<void(std::uint32_t)> listener) {
  Session s(*this);
  impl_->listener = std::move(listener);
}

void Nic::log(std::string_view line) {
  const FabricHost& me = info_.me();
  const std::string text = fmt::format("{} ({} {}): {}", me.name, programName(), ::getpid(), line);
  if (std::getenv("RDMASCOPE_VERBOSE")) std::fprintf(stderr, "%s\n", text.c_str());
  if (impl_->alive.load()) {
    sendAll(impl_->fd, encodeMessage(MessageType::Log, nlohmann::json{{"line", text}}));
  }
}

bool Nic::observed() const {
  return impl_->observed.load(std::memory_order_relaxed);
}

bool Nic::sniffing() const {
  return impl_->sniffing;
}

void Nic::setSniffListener(SniffListener listener) {
  Session s(*this);
  impl_->sniffListener = std::move(listener);
}

bool Nic::fabricAlive() const {
  return impl_->alive.load();
}

namespace {
/// True on the NIC's progress thread: the one that reads the fabric's socket, and whose idle
/// passes change nothing an observer sees.
thread_local bool onProgressThread = false;

/// A spin-wait hint to the CPU (frees the core's resources for its sibling thread).
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

std::int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void Nic::takeFrames() {
  Impl& m = *impl_;
  if (!m.sniffing && m.rings->pending(info_.self)) {
    m.net->sim().runUntil(m.now());
    const std::size_t n =
        m.rings->drain(info_.self, [&](const FrameRings::Frame& f) { m.net->receive(f.bytes); });
    if (n) m.lastArrival.store(steadyNs(), std::memory_order_relaxed);
  }
  // The socket carries control messages, wake-ups and the frames the switch held while
  // paused; the progress thread reads it (it wakes when something arrives there).
  if (!onProgressThread || !m.checkSocket || !m.alive.load(std::memory_order_relaxed)) return;
  for (;;) {
    const ssize_t n = ::recv(m.fd, m.rx.data(), m.rx.size(), MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) m.alive.store(false);
      return;
    }
    if (n == 0) {  // the fabric has gone: nothing arrives any more
      m.alive.store(false);
      return;
    }
    const auto msg = decodeMessage(std::span(m.rx.data(), static_cast<std::size_t>(n)));
    if (!msg) continue;
    if (msg->type == MessageType::NicControl) {
      control(msg->body);
      continue;
    }
    if (msg->type == MessageType::Sniffed) {
      if (msg->body.size() < 8) continue;
      std::int64_t ns = 0;
      for (int i = 0; i < 8; ++i)
        ns |= static_cast<std::int64_t>(msg->body[static_cast<std::size_t>(i)]) << (8 * i);
      if (m.sniffListener) m.sniffListener(m.net->host(0), msg->body.subspan(8), ns);
      m.lastArrival.store(steadyNs(), std::memory_order_relaxed);
      continue;
    }
    if (msg->type != MessageType::Frame) continue;
    m.net->sim().runUntil(m.now());
    m.net->receive(msg->body);
    m.lastArrival.store(steadyNs(), std::memory_order_relaxed);
  }
}

void Nic::control(std::span<const std::uint8_t> body) {
  Impl& m = *impl_;
  const nlohmann::json j = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
  if (!j.is_object()) return;
  const auto flag = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
  };
  const bool observed = flag("observed");
  if (observed && !m.observed.load()) m.stateDirty = true;
  m.observed.store(observed);
  {
    std::lock_guard g(m.holdMu);
    const bool hold = flag("hold");
    const auto now = std::chrono::steady_clock::now();
    if (hold && !m.held) m.heldSince = now;
    if (!hold && m.held) m.pausedTotal += now - m.heldSince;
    m.held = hold;
    if (!hold) m.stepCalls = 0;
    const auto step = j.find("step_calls");
    if (step != j.end() && step->is_number_integer()) m.stepCalls += step->get<int>();
  }
  m.holdCv.notify_all();
}

void Nic::sendState() {
  Impl& m = *impl_;
  HostState state = captureHostState(m.net->host(0));
  state.host = info_.self;
  sendAll(m.fd, encodeMessage(MessageType::State, toJson(state)));
  m.stateDirty = false;
  m.stateSent = std::chrono::steady_clock::now();
  m.eventsAtState = m.net->sim().eventsRun();
}

void Nic::progressLoop() {
  onProgressThread = true;
  Impl& m = *impl_;
  // While frames keep arriving and the program makes no verbs calls (a server waiting on its
  // TCP socket while a peer WRITEs) this thread does the NIC's work without sleeping; while the
  // program's own calls do it, it looks only every 200 us; after 1 ms without a frame or a
  // call it sleeps until a timer is due or a sender wakes it.
  constexpr std::int64_t kLookNs = 200'000;
  constexpr std::int64_t kBusyNs = 1'000'000;
  std::int64_t lastSocketLook = 0;
  for (;;) {
    sim::SimTime next;
    bool deep = false;
    bool spin = false;
    {
      Session s(*this);
      next = m.net->sim().nextEventTime();
      if (m.stateDirty && m.observed.load()) {  // a state not sent yet: look again soon
        const sim::SimTime soon = m.now() + sim::SimTime::ms(40);
        if (soon < next) next = soon;
      }
      const std::int64_t t = steadyNs();
      const bool appBusy = t - m.lastAppCall.load(std::memory_order_relaxed) < kLookNs;
      const bool traffic = t - m.lastArrival.load(std::memory_order_relaxed) < kBusyNs;
      deep = !appBusy && !traffic;
      // a sniffer's frames come through the socket, which the wait below wakes on
      spin = traffic && !appBusy && !m.sniffing;
      if (deep && !m.sniffing) {
        m.rings->setSleeping(info_.self, true);
        if (m.rings->pending(info_.self)) {  // arrived before the flag was seen: take it
          m.rings->setSleeping(info_.self, false);
          continue;
        }
      }
      m.wakeAt.store(next.picos());
    }
    if (spin) {  // spin briefly before giving the core away: a yield costs a system call
      for (int i = 0; i < 256 && !m.rings->pending(info_.self); ++i)
        cpuRelax();
      if (!m.rings->pending(info_.self)) sched_yield();
      const std::int64_t t = steadyNs();
      m.checkSocket = t - lastSocketLook > 100'000;
      if (m.checkSocket) lastSocketLook = t;
      continue;
    }
    m.checkSocket = true;
    std::int64_t waitNs = -1;
    if (next != sim::SimTime::max()) {
      waitNs = std::max<std::int64_t>(0, (next - m.now()).picos() / 1000);
    }
    if (!deep && (waitNs < 0 || waitNs > kLookNs)) waitNs = kLookNs;
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(waitNs / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(waitNs % 1'000'000'000);
    pollfd fds[2] = {{m.wakeFd, POLLIN, 0}, {m.alive.load() ? m.fd : -1, POLLIN, 0}};
    ::ppoll(fds, 2, waitNs >= 0 ? &ts : nullptr, nullptr);
    if (deep && !m.sniffing) m.rings->setSleeping(info_.self, false);
    if (fds[0].revents & POLLIN) {
      std::uint64_t v;
      [[maybe_unused]] const ssize_t r = ::read(m.wakeFd, &v, sizeof v);
    }
  }
}

Nic::Session::Session(Nic& nic) : nic_(nic), lock_(nic.impl_->mu) {
  if (!onProgressThread) nic.impl_->lastAppCall.store(steadyNs(), std::memory_order_relaxed);
  nic_.takeFrames();
  runDue();
}

namespace {

/// Waits while the fabric is held, until the observer lets one call through.
void waitForStep(std::mutex& mu, std::condition_variable& cv, bool& held, int& steps) {
  std::unique_lock g(mu);
  cv.wait(g, [&] { return !held || steps > 0; });
  if (held) --steps;
}

}  // namespace

Nic::Session::Session(Nic& nic, std::string_view call) : nic_(nic), named_(true) {
  Impl& m = *nic.impl_;
  if (m.observed.load(std::memory_order_relaxed)) {
    waitForStep(m.holdMu, m.holdCv, m.held, m.stepCalls);
    sendAll(m.fd, encodeMessage(MessageType::Call,
                                nlohmann::json{{"text", std::string(call)}, {"ns", unixTimeNs()}}));
  }
  lock_ = std::unique_lock(m.mu);
  m.lastAppCall.store(steadyNs(), std::memory_order_relaxed);
  nic_.takeFrames();
  runDue();
}

Nic::Session::~Session() {
  runDue();
  Impl& m = *nic_.impl_;
  m.port.announce();
  if (m.observed.load(std::memory_order_relaxed)) {
    if (named_ || !onProgressThread || m.net->sim().eventsRun() != m.eventsAtState) {
      m.stateDirty = true;  // a program's call may have changed what it owns (e.g. reg_mr)
    }
    bool held;
    {
      std::lock_guard g(m.holdMu);
      held = m.held;
    }
    if (m.stateDirty &&
        (held || std::chrono::steady_clock::now() - m.stateSent > std::chrono::milliseconds(40))) {
      nic_.sendState();
    }
  }
  sim::SimTime next = m.net->sim().nextEventTime();
  // A state held back by the interval is sent by the progress thread: wake it for that too,
  // or a program that makes no more calls would show the observer a stale state.
  if (m.stateDirty && m.observed.load(std::memory_order_relaxed)) {
    const sim::SimTime soon = m.now() + sim::SimTime::ms(40);
    if (soon < next) next = soon;
  }
  if (next.picos() < m.wakeAt.load(std::memory_order_relaxed)) {
    m.wakeAt.store(next.picos());
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t r = ::write(m.wakeFd, &one, sizeof one);
  }
}

void Nic::Session::runDue() {
  Impl& m = *nic_.impl_;
  m.net->sim().runUntil(m.now());
}

}  // namespace rdmascope::simdev
