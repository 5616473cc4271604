#include "rdmascope/analysis/psn.h"

#include <algorithm>

namespace rdmascope::analysis {

PsnWindow::PsnWindow(std::uint32_t windowBits)
    : bits_(std::max<std::uint32_t>(1, (windowBits + 63) / 64), 0) {}

bool PsnWindow::test(std::uint32_t psn) const {
  const std::size_t bit = psn % capacity();
  return (bits_[bit / 64] >> (bit % 64)) & 1U;
}

void PsnWindow::set(std::uint32_t psn, bool on) {
  const std::size_t bit = psn % capacity();
  if (on) {
    bits_[bit / 64] |= std::uint64_t{1} << (bit % 64);
  } else {
    bits_[bit / 64] &= ~(std::uint64_t{1} << (bit % 64));
  }
}

bool PsnWindow::contains(std::uint32_t psn) const {
  if (!started_) return false;
  const std::int32_t behind = psnDiff(highest_, psn);
  if (behind < 0 || static_cast<std::size_t>(behind) >= capacity()) return false;
  return test(psn);
}

bool PsnWindow::insert(std::uint32_t psn) {
  psn &= kPsnMask;
  if (!started_) {
    started_ = true;
    highest_ = psn;
    set(psn, true);
    return false;
  }
  const std::int32_t ahead = psnDiff(psn, highest_);
  if (ahead > 0) {
    // Slots between the old and the new highest now stand for PSNs not yet seen.
    if (static_cast<std::size_t>(ahead) >= capacity()) {
      std::fill(bits_.begin(), bits_.end(), 0);
    } else {
      // The slots after the old highest, a word at a time (they may wrap around the ring).
      std::size_t bit = (psnAdd(highest_, 1) % capacity());
      std::size_t left = static_cast<std::size_t>(ahead);
      while (left > 0) {
        const std::size_t inWord = std::min<std::size_t>(left, 64 - bit % 64);
        const std::uint64_t mask =
            inWord == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << inWord) - 1) << (bit % 64);
        bits_[bit / 64] &= ~mask;
        left -= inWord;
        bit = (bit + inWord) % capacity();
      }
    }
    highest_ = psn;
    set(psn, true);
    return false;
  }
  if (static_cast<std::size_t>(-ahead) >= capacity()) return false;
  const bool was = test(psn);
  set(psn, true);
  return was;
}

}  // namespace rdmascope::analysis
