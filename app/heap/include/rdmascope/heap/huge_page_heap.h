#pragma once
/// @file huge_page_heap.h
/// Transparent huge pages behind the heap of a process that builds large reports: the CLI's
/// `analyze`, and the GUI, whose analysis of an opened capture runs on a worker thread.

#include <cstddef>

namespace rdmascope::heap {

/// Grows the heap by `bytes` of address space now and asks the kernel to back it with
/// transparent huge pages (madvise(MADV_HUGEPAGE); the kernel's THP mode "madvise" honours
/// it, "never" ignores it), keeps freed memory in the heap instead of returning it, and makes
/// every thread allocate from that heap (one malloc arena: a worker thread's own arena would
/// get ordinary pages). Memory is only committed as it is touched, 2 MiB at a time. The
/// analysis of a capture allocates a small object per anomaly and per message, and the GUI
/// a list entry per frame: on 4 KiB pages their first touch cost `analyze` a third of its time
/// (200k frames, 95k anomalies, 18k page faults), and half of it under virtualisation.
/// Allocations beyond the reserve get ordinary pages. Call it first thing in main(), before
/// any other thread starts. Does nothing when the allocator does not grow the heap with brk
/// (AddressSanitizer's).
void reserveHugePageHeap(std::size_t bytes);

}  // namespace rdmascope::heap
