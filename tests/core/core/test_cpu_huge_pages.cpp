#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <st/core/allocator.h>

#include "core/cpu_huge_pages.h"

namespace {

using namespace st::detail;

constexpr size_t kMiB = size_t{1} << 20;

// The mapping of this process that holds `addr`, from /proc/self/smaps: its
// range and whether it is advised for huge pages ("hg" in VmFlags).
struct Mapping {
  uintptr_t begin = 0, end = 0;
  bool huge_advised = false;
};
Mapping mapping_of(const void* addr) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  Mapping m;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = lo <= a && a < hi;
      if (inside) m = Mapping{lo, hi, false};
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      std::istringstream flags(line.substr(8));
      std::string f;
      while (flags >> f) m.huge_advised |= f == "hg";
      return m;
    }
  }
  return Mapping{};
}

bool kernel_has_transparent_huge_pages() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  return f.good();
}

class CpuHugePages : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kernel_has_transparent_huge_pages())
      GTEST_SKIP() << "this kernel has no transparent huge pages";
  }
};

// Exactly the whole 2 MiB pages inside the range are advised: the kernel
// gives them a mapping of their own, flagged, between unflagged ones.
TEST_F(CpuHugePages, AdviceCoversTheWholeHugePagesOfTheRange) {
  char* p = static_cast<char*>(std::aligned_alloc(kCpuHugePageBytes, 8 * kMiB));
  ASSERT_NE(p, nullptr);
  advise_cpu_huge_pages(p + 4096, 6 * kMiB);  // whole pages: [p + 2 MiB, p + 6 MiB)
  const Mapping advised = mapping_of(p + 2 * kMiB);
  EXPECT_TRUE(advised.huge_advised);
  EXPECT_EQ(advised.begin, reinterpret_cast<uintptr_t>(p + 2 * kMiB));
  EXPECT_EQ(advised.end, reinterpret_cast<uintptr_t>(p + 6 * kMiB));
  EXPECT_FALSE(mapping_of(p + 2 * kMiB - 1).huge_advised);
  EXPECT_FALSE(mapping_of(p + 6 * kMiB).huge_advised);
  // No whole huge page, no advice; null is ignored.
  advise_cpu_huge_pages(p + 6 * kMiB + 4096, 2 * kMiB - 4096);
  EXPECT_FALSE(mapping_of(p + 7 * kMiB).huge_advised);
  advise_cpu_huge_pages(nullptr, 8 * kMiB);
  std::free(p);
}

// A large tensor's data starts on a huge page and its pages are advised; a
// smaller one keeps the usual alignment.
TEST_F(CpuHugePages, LargeCpuDataStartsOnAHugePageAndIsAdvised) {
  if (!cpu_huge_pages_enabled()) GTEST_SKIP() << "STABLETORCH_CPU_HUGE_PAGES=0";
  EXPECT_EQ(cpu_data_alignment(kCpuHugePageMinBytes, 64), kCpuHugePageBytes);
  EXPECT_EQ(cpu_data_alignment(kCpuHugePageMinBytes - 1, 64), 64u);
  // An odd size no block another test kept can serve.
  const size_t n = 9 * kMiB + 777;
  st::DataPtr big = st::cpu_allocator()->allocate(n);
  ASSERT_NE(big.get(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.get()) % kCpuHugePageBytes, 0u);
  EXPECT_TRUE(mapping_of(big.get()).huge_advised);
  // the whole 2 MiB pages of the data: its first 8 MiB
  EXPECT_TRUE(mapping_of(static_cast<char*>(big.get()) + 8 * kMiB - 1).huge_advised);
  EXPECT_FALSE(mapping_of(static_cast<char*>(big.get()) + 8 * kMiB).huge_advised);
  static_cast<char*>(big.get())[n - 1] = 1;  // the whole request is usable
  st::DataPtr small = st::cpu_allocator()->allocate(kCpuHugePageMinBytes - 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.get()) % st::kCpuAlignment, 0u);
}

// STABLETORCH_CPU_HUGE_PAGES=0 turns them off. Read once per process, so
// checked in a fresh one (the death test's re-executed child).
TEST_F(CpuHugePages, TheEnvironmentTurnsThemOff) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ASSERT_EQ(setenv("STABLETORCH_CPU_HUGE_PAGES", "0", 1), 0);
  EXPECT_EXIT(
      {
        const bool off = !cpu_huge_pages_enabled() &&
                         cpu_data_alignment(8 * kMiB, st::kCpuAlignment) == st::kCpuAlignment;
        std::_Exit(off ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  ASSERT_EQ(unsetenv("STABLETORCH_CPU_HUGE_PAGES"), 0);
}

}  // namespace
