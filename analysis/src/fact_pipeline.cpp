#include "rdmascope/analysis/fact_pipeline.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rdmascope::analysis {
namespace {

constexpr std::size_t kBatchFrames = 2048;
constexpr std::size_t kBatchesAhead = 8;

constexpr std::size_t kChunkFrames = 64;
constexpr std::size_t kChunks = kBatchFrames / kChunkFrames;

struct Slot {
  SourceFrame frame;
  bool hasFacts = false;
  PacketFacts facts;  // reused from batch to batch (its strings keep their storage)
};

// The facts of a chunk of a batch's frames: not read, being read (by one of the threads), read.
enum ChunkState : std::uint8_t { kUnread, kReading, kRead };

// A batch is pushed once its frames are read, before their facts: the reading thread then
// reads their facts chunk by chunk from the front, and the analysing one, when it takes a batch
// and none waits after it (the reading thread is not ahead), reads chunks from the back until
// the two meet. Whoever claims a chunk reads it.
struct Batch {
  std::vector<Slot> slots;
  std::size_t used = 0;
  std::uint64_t mark = 0;  // the source's position() before its first frame
  std::array<std::atomic<std::uint8_t>, kChunks> chunks{};

  std::size_t chunksUsed() const { return (used + kChunkFrames - 1) / kChunkFrames; }
  // Reads the facts of chunk `c` unless the other thread claimed it first (false).
  bool readChunk(std::size_t c, PacketFactReader& facts, packets::LinkType link) {
    std::uint8_t unread = kUnread;
    if (!chunks[c].compare_exchange_strong(unread, kReading, std::memory_order_acquire))
      return false;
    const std::size_t end = std::min(used, (c + 1) * kChunkFrames);
    for (std::size_t i = c * kChunkFrames; i < end; ++i) {
      Slot& s = slots[i];
      s.hasFacts =
          FlowAnalyzer::readFacts(facts, s.frame.data, link, s.frame.number, s.frame.time, s.facts);
    }
    chunks[c].store(kRead, std::memory_order_release);
    return true;
  }
  // Waits until the other thread has read chunk `c`; false when that thread failed first.
  bool waitForChunk(std::size_t c, const std::atomic<bool>& failed) const {
    for (int spins = 0; chunks[c].load(std::memory_order_acquire) != kRead; ++spins) {
      if (failed.load(std::memory_order_acquire)) return false;
      if (spins < 1024) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        std::this_thread::yield();
      }
    }
    return true;
  }
};

// Batches handed from the reading thread to the analysing one, in capture order, and back.
class Pipe {
 public:
  Batch* takeFree() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return stopping_ || !free_.empty(); });
    if (stopping_) return nullptr;
    Batch* b = free_.back();
    free_.pop_back();
    return b;
  }
  // A batch to fill, before any is pushed.
  void addFree(Batch* b) {
    std::lock_guard lock(mutex_);
    free_.push_back(b);
  }
  // Batches come back in the order they were pushed.
  void giveFree(Batch* b) {
    {
      std::lock_guard lock(mutex_);
      free_.push_back(b);
      held_.pop_front();
      ++released_;
    }
    changed_.notify_all();
  }
  // nullptr: the end of the source.
  void push(Batch* b) {
    {
      std::lock_guard lock(mutex_);
      ready_.push_back(b);
      if (b) held_.push_back(b->mark);
    }
    changed_.notify_all();
  }
  // The mark of the oldest batch pushed and not given back, else `own` (the one being filled).
  std::uint64_t oldestHeld(std::uint64_t own) {
    std::lock_guard lock(mutex_);
    return held_.empty() ? own : held_.front();
  }
  // Waits until a batch is given back (or stop()); false on stop().
  bool waitRelease() {
    std::unique_lock lock(mutex_);
    const std::uint64_t seen = released_;
    changed_.wait(lock, [&] { return stopping_ || released_ != seen; });
    return !stopping_;
  }
  // `last`: no other batch waits after it.
  Batch* pop(bool& last) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !ready_.empty(); });
    Batch* b = ready_.front();
    ready_.pop_front();
    last = ready_.empty();
    return b;
  }
  // Makes the reading thread give up (the analysing one failed or was stopped).
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Batch*> free_;
  std::deque<Batch*> ready_;
  std::deque<std::uint64_t> held_;  // marks of the batches pushed and not given back
  std::uint64_t released_ = 0;
  bool stopping_ = false;
};

// The consumer of a plain analysis (analyzeFrames).
class AnalyzerConsumer final : public FactConsumer {
 public:
  AnalyzerConsumer(FlowAnalyzer& analyzer, packets::LinkType link)
      : analyzer_(analyzer), link_(link) {}
  void add(const SourceFrame& frame, const PacketFacts* facts) override {
    if (facts)
      analyzer_.addPacket(*facts);
    else
      analyzer_.addFrame(frame.data, link_, frame.number, frame.time);
  }

 private:
  FlowAnalyzer& analyzer_;
  const packets::LinkType link_;
};

bool feedInParallel(FrameSource& source, FactConsumer& consumer,
                    const packets::DecodeOptions& options) {
  const packets::LinkType link = source.linkType();
  std::vector<std::unique_ptr<Batch>> batches;
  Pipe pipe;
  for (std::size_t i = 0; i < kBatchesAhead; ++i) {
    batches.push_back(std::make_unique<Batch>());
    batches.back()->slots.resize(kBatchFrames);
    pipe.addFree(batches.back().get());
  }
  std::exception_ptr failure;       // of the reading thread, rethrown here after it ends
  std::atomic<bool> failed{false};  // set with it (a chunk it claimed is never read)
  std::thread readerThread([&] {
    try {
      PacketFactReader facts(options);
      bool end = false;
      while (!end) {
        Batch* b = pipe.takeFree();
        if (!b) return;
        b->used = 0;
        for (auto& c : b->chunks)
          c.store(kUnread, std::memory_order_relaxed);
        b->mark = source.position();
        // The frames of the batches not given back stay in the source's buffer: read on while
        // it keeps them, and end the batch early (or wait for one back) when it would not.
        std::uint64_t held = pipe.oldestHeld(b->mark);
        while (b->used < kBatchFrames) {
          if (!source.mayReadKeeping(held)) {
            held = pipe.oldestHeld(b->mark);
            if (!source.mayReadKeeping(held)) {
              if (b->used > 0) break;
              if (!pipe.waitRelease()) return;
              continue;
            }
          }
          if (!source.next(b->slots[b->used].frame)) {
            end = true;
            break;
          }
          ++b->used;
        }
        pipe.push(b);  // publishes the frames (the pipe's lock); their facts follow
        for (std::size_t c = 0; c < b->chunksUsed() && b->readChunk(c, facts, link); ++c) {
        }
      }
    } catch (...) {
      failure = std::current_exception();
      failed.store(true, std::memory_order_release);
    }
    pipe.push(nullptr);
  });
  bool stopped = false;
  try {
    PacketFactReader facts(options);
    std::uint64_t added = 0;
    bool last = false;
    while (Batch* b = pipe.pop(last)) {
      if (last)  // caught up with the reading thread: share the facts of this batch with it
        for (std::size_t c = b->chunksUsed(); c-- > 0 && b->readChunk(c, facts, link);) {
        }
      for (std::size_t i = 0; i < b->used; ++i) {
        if (i % kChunkFrames == 0 && !b->waitForChunk(i / kChunkFrames, failed)) break;
        const Slot& s = b->slots[i];
        consumer.add(s.frame, s.hasFacts ? &s.facts : nullptr);
        ++added;
      }
      pipe.giveFree(b);
      if (!consumer.proceed(added)) {
        stopped = true;
        break;
      }
    }
  } catch (...) {
    pipe.stop();
    readerThread.join();
    throw;
  }
  if (stopped) pipe.stop();
  readerThread.join();
  if (failure && !stopped) std::rethrow_exception(failure);
  return !stopped;
}

}  // namespace

bool feedFacts(FrameSource& source, FactConsumer& consumer,
               const packets::DecodeOptions& factOptions, unsigned threads) {
  if (threads > 1) return feedInParallel(source, consumer, factOptions);
  PacketFactReader reader(factOptions);
  PacketFacts facts;
  SourceFrame frame;
  const packets::LinkType link = source.linkType();
  std::uint64_t added = 0;
  while (source.next(frame)) {
    const bool has =
        FlowAnalyzer::readFacts(reader, frame.data, link, frame.number, frame.time, facts);
    consumer.add(frame, has ? &facts : nullptr);
    if ((++added % kBatchFrames) == 0 && !consumer.proceed(added)) return false;
  }
  return consumer.proceed(added);
}

void analyzeFrames(FrameSource& source, FlowAnalyzer& analyzer, unsigned threads) {
  AnalyzerConsumer consumer(analyzer, source.linkType());
  feedFacts(source, consumer, analyzer.factOptions(), threads);
}

}  // namespace rdmascope::analysis
