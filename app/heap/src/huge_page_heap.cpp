#include "rdmascope/heap/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace rdmascope::heap {

void reserveHugePageHeap(std::size_t bytes) {
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  // One arena for every thread; blocks up to 32 MiB from the heap (glibc's largest
  // threshold), the heap grown by the reserve at once and never trimmed below it.
  ::mallopt(M_ARENA_MAX, 1);
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TOP_PAD, static_cast<int>(bytes));
  ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * bytes));
  void* const low = ::sbrk(0);
  // A block at the top makes the heap grow by the pad; freed, it leaves the reserve free.
  // (Kept through a volatile pointer: a compiler may drop a malloc whose block is unused.)
  void* volatile block = std::malloc(std::size_t{1} << 20);
  void* const high = ::sbrk(0);
  std::free(block);
  if (low == reinterpret_cast<void*>(-1) || high == reinterpret_cast<void*>(-1)) return;
  const auto before = reinterpret_cast<std::uintptr_t>(low);
  const auto after = reinterpret_cast<std::uintptr_t>(high);
  if (after <= before) return;
  const std::uintptr_t first = (before + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = after & ~(kHugePage - 1);
  if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);  // a hint
}

}  // namespace rdmascope::heap
