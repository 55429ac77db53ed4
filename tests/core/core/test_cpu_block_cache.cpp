#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/cpu_block_cache.h"

namespace {

using st::detail::CpuBlockCache;

constexpr size_t kMiB = size_t{1} << 20;

// Each test keeps its own cache (the allocator's is process-wide).
class CpuBlockCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!CpuBlockCache::enabled()) GTEST_SKIP() << "no blocks are kept under AddressSanitizer";
  }
  void TearDown() override { cache.release(); }
  // A real block, so that freeing what the cache does not keep is checked
  // by the sanitizers' leak checks.
  static void* block(size_t bytes) { return std::malloc(bytes); }
  CpuBlockCache cache;
};

TEST_F(CpuBlockCacheTest, ABlockIsTakenBackForARequestItFitsWithinTwice) {
  void* b = block(4 * kMiB);
  cache.give(b, 4 * kMiB);
  EXPECT_EQ(cache.kept_blocks(), 1);
  EXPECT_EQ(cache.kept_bytes(), 4 * kMiB);
  EXPECT_EQ(cache.take(4 * kMiB + 1), nullptr);  // too small
  EXPECT_EQ(cache.take(2 * kMiB - 1), nullptr);  // would waste more than half
  EXPECT_EQ(cache.take(2 * kMiB), b);
  EXPECT_EQ(cache.kept_blocks(), 0);
  EXPECT_EQ(cache.kept_bytes(), 0u);
  EXPECT_EQ(cache.take(2 * kMiB), nullptr);  // taken once only
  std::free(b);
}

TEST_F(CpuBlockCacheTest, SmallAndOversizedBlocksAreFreedNotKept) {
  cache.give(block(100), 100);
  cache.give(block(CpuBlockCache::kMinBytes - 1), CpuBlockCache::kMinBytes - 1);
  cache.give(block(CpuBlockCache::kMaxBytes + 1), CpuBlockCache::kMaxBytes + 1);
  cache.give(nullptr, 4 * kMiB);
  EXPECT_EQ(cache.kept_blocks(), 0);
  EXPECT_EQ(cache.take(100), nullptr);
  EXPECT_EQ(cache.take(CpuBlockCache::kMinBytes - 1), nullptr);
}

// The newest block that fits, not the smallest: it is the one most likely
// still in the caches (a 1M-element result cycled through every kept block
// of its size, 1.2-2.6x the time of reusing the last one).
TEST_F(CpuBlockCacheTest, TheNewestFittingBlockIsTaken) {
  void* two = block(2 * kMiB);
  void* three = block(3 * kMiB);
  void* five = block(5 * kMiB);
  void* other_two = block(2 * kMiB);
  cache.give(two, 2 * kMiB);
  cache.give(three, 3 * kMiB);
  cache.give(five, 5 * kMiB);
  cache.give(other_two, 2 * kMiB);
  EXPECT_EQ(cache.take(2 * kMiB), other_two);
  EXPECT_EQ(cache.take(2 * kMiB), three);
  EXPECT_EQ(cache.take(2 * kMiB), two);
  EXPECT_EQ(cache.take(2 * kMiB), nullptr);  // five would waste more than half
  EXPECT_EQ(cache.take(4 * kMiB), five);
  for (void* b : {two, three, five, other_two}) std::free(b);
}

TEST_F(CpuBlockCacheTest, TheOldestBlockGoesWhenTheEntriesAreFull) {
  std::vector<void*> given;
  for (int i = 0; i <= CpuBlockCache::kEntries; ++i) {
    const size_t bytes = kMiB + static_cast<size_t>(i) * 4096;
    given.push_back(block(bytes));
    cache.give(given.back(), bytes);
  }
  EXPECT_EQ(cache.kept_blocks(), CpuBlockCache::kEntries);
  // given[0] was freed: only the others come back, newest first.
  for (int i = CpuBlockCache::kEntries; i >= 1; --i) {
    void* b = cache.take(kMiB);
    EXPECT_EQ(b, given[static_cast<size_t>(i)]) << i;
    std::free(b);
  }
  EXPECT_EQ(cache.take(kMiB), nullptr);
}

TEST_F(CpuBlockCacheTest, TheOldestBlocksGoWhenTheBytesWouldPassTheCap) {
  const size_t big = CpuBlockCache::kMaxBytes / 3 + kMiB;
  void* first = block(big);
  void* second = block(big);
  void* third = block(big);
  cache.give(first, big);
  cache.give(second, big);
  cache.give(third, big);  // first is freed to make room
  EXPECT_EQ(cache.kept_blocks(), 2);
  EXPECT_EQ(cache.kept_bytes(), 2 * big);
  EXPECT_LE(cache.kept_bytes(), CpuBlockCache::kMaxBytes);
  void* a = cache.take(big);
  void* b = cache.take(big);
  EXPECT_TRUE((a == second && b == third) || (a == third && b == second));
  std::free(a);
  std::free(b);
}

TEST_F(CpuBlockCacheTest, ReleaseFreesEveryKeptBlock) {
  cache.give(block(2 * kMiB), 2 * kMiB);
  cache.give(block(3 * kMiB), 3 * kMiB);
  cache.release();
  EXPECT_EQ(cache.kept_blocks(), 0);
  EXPECT_EQ(cache.kept_bytes(), 0u);
  EXPECT_EQ(cache.take(2 * kMiB), nullptr);
}

// Two threads giving and taking at once: each block is taken by one thread
// only (a block taken twice would be freed twice), and the totals add up.
TEST_F(CpuBlockCacheTest, ConcurrentGiveAndTakeHandOutEachBlockOnce) {
  auto work = [this] {
    for (int i = 0; i < 2000; ++i) {
      const size_t bytes = kMiB + static_cast<size_t>(i % 7) * 65536;
      void* b = cache.take(bytes);
      if (b == nullptr) b = block(bytes);
      static_cast<volatile char*>(b)[0] = 1;  // owned now: a write races with no one
      cache.give(b, bytes);  // at most its usable size: what take matched, or malloc's
    }
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  EXPECT_LE(cache.kept_blocks(), CpuBlockCache::kEntries);
  EXPECT_LE(cache.kept_bytes(), CpuBlockCache::kMaxBytes);
}

// A child forked while another thread keeps giving and taking blocks can
// use the cache: fork() waits for the lock (the fork handlers of
// cpu_block_cache()), so the child never starts with it held by a thread it
// does not have. Without the handlers most of these children hang.
TEST_F(CpuBlockCacheTest, AChildForkedWhileAnotherThreadUsesTheCacheCanUseIt) {
  CpuBlockCache& global = st::detail::cpu_block_cache();
  auto cycle = [&global] {
    void* b = global.take(2 * kMiB);
    if (b == nullptr) b = block(2 * kMiB);
    global.give(b, 2 * kMiB);
  };
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop.load(std::memory_order_relaxed)) cycle();
  });
  int hung = 0;
  for (int i = 0; i < 40 && hung == 0; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      cycle();
      _exit(0);
    }
    int status = 0;
    bool done = false;
    for (int t = 0; t < 200 && !done; ++t) {  // up to 2 s
      done = waitpid(pid, &status, WNOHANG) == pid;
      if (!done) usleep(10000);
    }
    if (!done) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ++hung;
    } else {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
  }
  stop.store(true);
  churn.join();
  EXPECT_EQ(hung, 0) << "a forked child hung on the cache's lock";
  global.release();
}

}  // namespace
