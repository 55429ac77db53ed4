// Internal: transparent huge pages for large CPU blocks (Note [Huge pages
// for large CPU blocks]).
#pragma once

#include <cstddef>

namespace st {
namespace detail {

// Note [Huge pages for large CPU blocks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A loop over a few 1M-element tensors touches more 4 KiB pages than the
// TLB holds (three int64 operands: 6,144 pages; a Zen 4's L2 TLB has 3,072
// entries), so it walks the page tables every few lines it reads. Most
// kernels back anonymous memory with 2 MiB pages only where the program
// asks (transparent_hugepage=madvise, the default of Debian and Ubuntu),
// and glibc's malloc does not ask unless told to (glibc.malloc.hugetlb).
// So the CPU allocator aligns the data of a request of at least
// kCpuHugePageMinBytes to 2 MiB and, when it takes a new block from
// malloc, advises the kernel (madvise MADV_HUGEPAGE) that the whole 2 MiB
// pages of the data may be huge. Advice only: where the kernel has no
// huge page free, or transparent huge pages are off, the block keeps
// small pages and nothing else changes. The block costs up to 2 MiB more
// address space, not memory (the slack below the data is never touched
// but for the header's page). A process that must not take the kernel's
// compaction time on a fault (defrag=madvise compacts for advised
// regions) sets STABLETORCH_CPU_HUGE_PAGES=0.
inline constexpr size_t kCpuHugePageBytes = size_t{2} << 20;
inline constexpr size_t kCpuHugePageMinBytes = size_t{4} << 20;

// Whether large blocks get huge-page alignment and advice: true unless the
// environment variable STABLETORCH_CPU_HUGE_PAGES is "0" when it is first
// asked (read once per process). Thread-safe.
bool cpu_huge_pages_enabled() noexcept;

// The alignment of the data of a CPU block of nbytes: kCpuHugePageBytes for
// at least kCpuHugePageMinBytes while huge pages are enabled, else
// `small_alignment`. Thread-safe.
size_t cpu_data_alignment(size_t nbytes, size_t small_alignment) noexcept;

// Advises the kernel to back the whole 2 MiB pages inside [data, data +
// nbytes) with huge pages. Nothing when there are none (or data is null);
// the kernel's refusal is ignored (advice). Thread-safe.
void advise_cpu_huge_pages(void* data, size_t nbytes) noexcept;

}  // namespace detail
}  // namespace st
