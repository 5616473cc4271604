#pragma once
// Batches of frames processed over every core while the reading thread keeps their order: the
// reader submits each batch as it is read; helper threads take them oldest first, and the
// reading thread, when it needs the oldest batch, processes queued ones itself until that one
// is done. The passes of `decode` (printing, --verify) share it.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "rdmascope/packets/dissection.h"

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

}  // namespace rdmascope::cli
