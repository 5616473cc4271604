#pragma once
// Batches of frames processed over every core while the reading thread keeps their order: the
// reader submits each batch as it is read; helper threads take them oldest first, and the
// reading thread, when it needs the oldest batch, processes queued ones itself until that one
// is done. The passes of `decode` (printing, --verify) share it.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

/// `Batch` has a `bool done`, written under the workers' lock; `process` may use the scratch
/// dissection of the thread it runs on.
template <class Batch>
class BatchWorkers {
 public:
  using Process = std::function<void(Batch&, packets::Dissection&)>;

  explicit BatchWorkers(Process process) : process_(std::move(process)) {}
  BatchWorkers(const BatchWorkers&) = delete;
  BatchWorkers& operator=(const BatchWorkers&) = delete;
  ~BatchWorkers() { stop(); }

  void start(unsigned helpers) {
    for (unsigned i = 0; i < helpers; ++i)
      threads_.emplace_back([this] { helperLoop(); });
  }

  /// Drops the batches no thread took yet and joins the helpers.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      queue_.clear();
    }
    changed_.notify_all();
    for (auto& t : threads_)
      t.join();
    threads_.clear();
  }

  void submit(Batch* b) {
    {
      std::lock_guard lock(mutex_);
      b->done = false;
      queue_.push_back(b);
    }
    changed_.notify_all();
  }

  /// Processes queued batches on the calling thread until `b` is done.
  void finish(Batch* b, packets::Dissection& scratch) {
    std::unique_lock lock(mutex_);
    while (!b->done) {
      if (!queue_.empty()) {
        runOldest(lock, scratch);
      } else {
        changed_.wait(lock);
      }
    }
  }

 private:
  // Takes the oldest queued batch, processes it unlocked and marks it done.
  void runOldest(std::unique_lock<std::mutex>& lock, packets::Dissection& scratch) {
    Batch* b = queue_.front();
    queue_.pop_front();
    lock.unlock();
    process_(*b, scratch);
    lock.lock();
    b->done = true;
    changed_.notify_all();
  }

  void helperLoop() {
    packets::Dissection scratch;
    std::unique_lock lock(mutex_);
    while (true) {
      changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      runOldest(lock, scratch);
    }
  }

  const Process process_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

/// Frames of a capture read into batches ahead of the thread that uses them: up to four batches
/// per thread in flight, never more frames than the reader keeps (CaptureReader::mayReadKeeping),
/// each processed by the workers and handed back oldest first. `Batch` has, besides `done`,
/// `std::uint64_t mark`, a `slots` vector and `clear()`, which empties it for reuse. The reader
/// must keep its views (CaptureReader::keepsViews()).
template <class Batch>
class BatchPipeline {
 public:
  BatchPipeline(packets_io::CaptureReader& reader, typename BatchWorkers<Batch>::Process process,
                unsigned threads, std::size_t batchFrames)
      : reader_(reader),
        batchFrames_(batchFrames),
        maxInFlight_(4 * std::size_t{threads > 0 ? threads : 1u}),
        workers_(std::move(process)) {
    workers_.start(threads > 1 ? threads - 1 : 0);
  }

  /// Reads on while there is room (`add(batch, view)` puts each frame into its batch; `more()`
  /// false ends the reading before the next frame), then returns the oldest batch in flight,
  /// processed; nullptr when none is left.
  template <class Add, class More>
  Batch* oldest(packets::Dissection& scratch, Add&& add, More&& more) {
    readAhead(add, more);
    if (inFlight_.empty()) return nullptr;
    Batch* b = inFlight_.front().get();
    workers_.finish(b, scratch);
    return b;
  }

  /// The oldest batch is used: kept for reuse (its buffers are not handed back to the system
  /// and faulted in again for every batch).
  void release() {
    spare_.push_back(std::move(inFlight_.front()));
    inFlight_.pop_front();
  }

  /// Ends the helpers (the batches they did not take are dropped).
  void stop() { workers_.stop(); }

 private:
  template <class Add, class More>
  void readAhead(Add& add, More& more) {
    bool blocked = false;
    packets_io::FrameView v;
    while (!end_ && !blocked && inFlight_.size() < maxInFlight_) {
      std::unique_ptr<Batch> b;
      if (spare_.empty()) {
        b = std::make_unique<Batch>();
        b->slots.reserve(batchFrames_);
      } else {
        b = std::move(spare_.back());
        spare_.pop_back();
        b->clear();
      }
      b->mark = reader_.position();
      const std::uint64_t held = inFlight_.empty() ? b->mark : inFlight_.front()->mark;
      while (b->slots.size() < batchFrames_) {
        if (!more()) {
          end_ = true;
          break;
        }
        // Reading stops while the batches in flight hold as many bytes as the reader keeps.
        if (!reader_.mayReadKeeping(held)) {
          blocked = true;
          break;
        }
        if (!reader_.next(v)) {
          end_ = true;
          break;
        }
        add(*b, v);
      }
      if (b->slots.empty()) {
        spare_.push_back(std::move(b));
        break;
      }
      workers_.submit(b.get());
      inFlight_.push_back(std::move(b));
    }
  }

  packets_io::CaptureReader& reader_;
  const std::size_t batchFrames_;
  const std::size_t maxInFlight_;
  std::deque<std::unique_ptr<Batch>> inFlight_;
  std::vector<std::unique_ptr<Batch>> spare_;
  bool end_ = false;
  BatchWorkers<Batch> workers_;  // declared last: its helpers are joined before the batches go
};

}  // namespace rdmascope::cli
