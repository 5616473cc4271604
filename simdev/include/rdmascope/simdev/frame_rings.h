#pragma once
/// @file frame_rings.h
/// The fabric's data path: shared memory that the fabric creates and every attached NIC maps,
/// holding one single-producer single-consumer ring of frames per ordered pair of hosts and, per
/// host, a mirror ring to the fabric (for the pcap and observers). A frame goes from the
/// sender's NIC straight into the receiver's ring, with no system call and no third process on
/// the way; a receiver that is polling finds it there, and one whose threads sleep is woken
/// through the fabric's socket. Switch state the NICs need (which hosts are attached, whether
/// the fabric is paused or wants a mirror copy, the loss rate) and the counters live here too.
///
/// Everything in the mapping is written by other processes of the same user, so a reader
/// checks every length and offset it reads before using it: a corrupt ring drops frames, it
/// never makes a reader touch memory outside the mapping.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace rdmascope::simdev {

/// Counters and switch state shared by the fabric and its NICs.
struct FabricCounters {
  std::uint64_t frames = 0;      ///< sent by hosts
  std::uint64_t forwarded = 0;   ///< put in the destination's ring
  std::uint64_t lost = 0;        ///< dropped by the configured loss or a full ring
  std::uint64_t unroutable = 0;  ///< no attached host owns the destination
};

class FrameRings {
 public:
  /// What a ring delivers: the frame, the sender's Unix time in ns, and whether the switch
  /// dropped it (mirror rings carry the lost frames too, as a mirror port would).
  struct Frame {
    int from = 0;
    std::span<const std::uint8_t> bytes;
    std::int64_t unixNs = 0;
    bool lost = false;
  };

  /// Creates the shared memory for `hosts` hosts (1..254). Null with `error` set on failure.
  static std::unique_ptr<FrameRings> create(int hosts, double lossRate, std::uint64_t seed,
                                            std::string& error);
  /// Maps the shared memory the fabric passed as `fd` (the caller keeps its fd). Null with
  /// `error` set when the fd is not a fabric's mapping.
  static std::unique_ptr<FrameRings> map(int fd, std::string& error);
  ~FrameRings();
  FrameRings(const FrameRings&) = delete;
  FrameRings& operator=(const FrameRings&) = delete;

  int fd() const { return fd_; }
  int hosts() const { return hosts_; }
  double lossRate() const { return lossRate_; }
  std::uint64_t seed() const { return seed_; }

  // Switch state, set by the fabric.
  void setAttached(int host, bool attached);
  bool attached(int host) const;
  void setPaused(bool paused);
  bool paused() const;
  void setMirror(bool mirror);
  bool mirror() const;

  /// Puts a frame in the ring from `from` to `to` (0: the fabric's mirror ring of `from`).
  /// False when the ring is full or the frame is larger than a ring holds.
  bool push(int from, int to, std::span<const std::uint8_t> frame, std::int64_t unixNs,
            bool lost = false);
  /// Called after pushing a frame for host `to`: true when its NIC sleeps and must be woken
  /// (true for one caller only until it sleeps again).
  bool announce(int to);

  /// Calls `f(Frame)` for each frame waiting for host `to` (0: the fabric, every mirror
  /// ring), oldest first per sender; returns how many. Frames of a sender are delivered in
  /// the order sent. A sender's frames stamped after `notAfterNs` stay for a later call.
  template <typename F>
  std::size_t drain(int to, F&& f, std::int64_t notAfterNs = INT64_MAX) {
    std::size_t n = 0;
    for (int from = 1; from <= hosts(); ++from) {
      n += drainOneImpl(
          from, to, &f, [](void* c, const Frame& fr) { (*static_cast<F*>(c))(fr); }, notAfterNs);
    }
    return n;
  }
  /// True when frames wait for host `to` (one look at each ring to it).
  bool pending(int to) const;
  /// Forgets what waits for host `to` (a program attaching to a host takes over no frames sent
  /// to the one before it).
  void discard(int to);

  /// The consumer of host `host` is about to sleep (true) or is awake (false); a producer that
  /// announces a frame while it sleeps wakes it.
  void setSleeping(int host, bool sleeping);

  /// Adds to the counters of `host` (0: the fabric's own, for frames it forwards); only that
  /// host's NIC writes them.
  void count(int host, std::uint64_t frames, std::uint64_t forwarded, std::uint64_t lost,
             std::uint64_t unroutable);
  FabricCounters counters() const;

  /// Frames waiting in the mirror ring of `from` as a fraction of its size (0..1).
  double mirrorFill(int from) const;

 private:
  FrameRings() = default;
  struct Layout;
  std::size_t drainOneImpl(int from, int to, void* ctx, void (*call)(void*, const Frame&),
                           std::int64_t notAfterNs);

  int fd_ = -1;
  bool ownsFd_ = false;
  std::uint8_t* base_ = nullptr;
  std::size_t size_ = 0;
  Layout* layout_ = nullptr;
  // Read once when mapped (and checked): the mapping's copies may be overwritten later.
  int hosts_ = 0;
  std::uint64_t ringBytes_ = 0;
  std::uint64_t ringsOffset_ = 0;
  double lossRate_ = 0;
  std::uint64_t seed_ = 0;
};

}  // namespace rdmascope::simdev
