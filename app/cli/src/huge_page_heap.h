#pragma once
// Transparent huge pages behind the heap of a pass that builds a large report.

#include <cstddef>

namespace rdmascope::cli {

/// Grows the heap by `bytes` of address space now and asks the kernel to back it with
/// transparent huge pages (madvise(MADV_HUGEPAGE); the kernel's THP mode "madvise" honours
/// it, "never" ignores it), and keeps freed memory in the heap instead of returning it.
/// Memory is only committed as it is touched, 2 MiB at a time. The analysis of a capture
/// allocates a small object per anomaly and per message: on 4 KiB pages their first touch
/// cost `analyze` a third of its time (200k frames, 95k anomalies, 18k page faults), and
/// half of it under virtualisation. Allocations beyond the reserve get ordinary pages.
/// Does nothing when the allocator does not grow the heap with brk (AddressSanitizer's).
void reserveHugePageHeap(std::size_t bytes);

}  // namespace rdmascope::cli
