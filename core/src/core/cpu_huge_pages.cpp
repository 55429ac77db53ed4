#include "cpu_huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace st {
namespace detail {

bool cpu_huge_pages_enabled() noexcept {
  static const bool on = [] {
    const char* env = std::getenv("STABLETORCH_CPU_HUGE_PAGES");
    return env == nullptr || std::strcmp(env, "0") != 0;
  }();
  return on;
}

size_t cpu_data_alignment(size_t nbytes, size_t small_alignment) noexcept {
  return nbytes >= kCpuHugePageMinBytes && cpu_huge_pages_enabled() ? kCpuHugePageBytes
                                                                    : small_alignment;
}

void advise_cpu_huge_pages(void* data, size_t nbytes) noexcept {
  if (data == nullptr) return;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + (kCpuHugePageBytes - 1)) & ~uintptr_t{kCpuHugePageBytes - 1};
  const uintptr_t end = (begin + nbytes) & ~uintptr_t{kCpuHugePageBytes - 1};
  if (end <= first) return;  // no whole huge page
  (void)madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
}

}  // namespace detail
}  // namespace st
