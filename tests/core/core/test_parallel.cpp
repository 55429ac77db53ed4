#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <st/core/parallel.h>

#include "tensor_test_util.h"

namespace {

using st::testing::error_of;

// Restores the thread count a test changed.
class ThreadCountGuard {
 public:
  ThreadCountGuard() : saved_(st::get_num_threads()) {}
  ~ThreadCountGuard() { st::set_num_threads(saved_); }

 private:
  int saved_;
};

TEST(Parallel, CoversRangeExactlyOnce) {
  ThreadCountGuard guard;
  st::set_num_threads(4);
  std::vector<std::atomic<int>> hits(1000);
  st::parallel_for(0, 1000, 10, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)]++;
  });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(Parallel, ChunksRespectGrainAndThreadIdx) {
  ThreadCountGuard guard;
  st::set_num_threads(3);
  std::mutex m;
  std::set<int> ids;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  st::parallel_for(5, 905, 100, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(m);
    ids.insert(st::get_thread_idx());
    chunks.emplace_back(b, e);
    EXPECT_TRUE(st::in_parallel_region());
  });
  EXPECT_EQ(chunks.size(), 3u);
  for (int id : ids) {
    EXPECT_GE(id, 0);
    EXPECT_LT(id, 3);
  }
  EXPECT_EQ(st::get_thread_idx(), 0);
  EXPECT_FALSE(st::in_parallel_region());
}

TEST(Parallel, SmallRangesAndEmptyRangesRunInline) {
  int calls = 0;
  st::parallel_for(0, 10, 100, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 10);
    EXPECT_FALSE(st::in_parallel_region());
  });
  EXPECT_EQ(calls, 1);
  st::parallel_for(5, 5, 1, [&](int64_t, int64_t) { ++calls; });
  st::parallel_for(6, 5, 1, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 1);
}

// Chunks [b, e) seen by a body, sorted, and checked to tile [begin, end).
void expect_tiles(int64_t begin, int64_t end, int64_t grain) {
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  st::parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(mu);
    chunks.emplace_back(b, e);
  });
  std::sort(chunks.begin(), chunks.end());
  ASSERT_FALSE(chunks.empty());
  EXPECT_EQ(chunks.front().first, begin);
  EXPECT_EQ(chunks.back().second, end);
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_LT(chunks[i].first, chunks[i].second);
    if (i > 0) {
      EXPECT_EQ(chunks[i - 1].second, chunks[i].first);
    }
  }
}

// A range with more than INT64_MAX elements has no int64 length: refused
// before the body runs (the split once wrapped and ran the body on
// garbage ranges). Ranges up to the limits split without overflow.
TEST(Parallel, RangesAtTheInt64Limits) {
  ThreadCountGuard guard;
  st::set_num_threads(4);
  int calls = 0;
  auto body = [&](int64_t, int64_t) { ++calls; };
  EXPECT_ST_ERROR_HAS(st::parallel_for(INT64_MIN, INT64_MAX, 1, body),
                      "parallel_for: the length end - begin of the range overflows int64: "
                      "9223372036854775807 - -9223372036854775808");
  EXPECT_ST_ERROR_HAS(st::parallel_for(-1, INT64_MAX, 0, body), "overflows int64");
  EXPECT_ST_ERROR_HAS(st::parallel_for(INT64_MIN, 1, INT64_MAX, body), "overflows int64");
  EXPECT_EQ(calls, 0);
  // Only chunk bounds are recorded, so these huge ranges cost nothing.
  expect_tiles(0, INT64_MAX, 2);
  expect_tiles(INT64_MIN, -1, 3);
  expect_tiles(INT64_MAX - 1001, INT64_MAX, 1);  // last chunk ends at INT64_MAX
  expect_tiles(INT64_MIN, INT64_MIN + 1001, 1);
  expect_tiles(0, INT64_MAX, INT64_MAX - 1);
}

TEST(Parallel, NestedCallsRunInline) {
  ThreadCountGuard guard;
  st::set_num_threads(4);
  std::atomic<int64_t> total{0};
  st::parallel_for(0, 8, 1, [&](int64_t b, int64_t e) {
    const int outer_idx = st::get_thread_idx();
    for (int64_t i = b; i < e; ++i) {
      int inner_calls = 0;
      st::parallel_for(0, 100, 1, [&](int64_t ib, int64_t ie) {
        ++inner_calls;  // inline: one call covering everything
        EXPECT_EQ(st::get_thread_idx(), outer_idx);
        total += ie - ib;
      });
      EXPECT_EQ(inner_calls, 1);
    }
  });
  EXPECT_EQ(total.load(), 800);
}

TEST(Parallel, FirstExceptionPropagates) {
  ThreadCountGuard guard;
  st::set_num_threads(4);
  EXPECT_THROW(st::parallel_for(0, 400, 1,
                                [&](int64_t b, int64_t) {
                                  if (b >= 100) throw std::runtime_error("boom");
                                }),
               std::runtime_error);
  EXPECT_EQ(error_of([] {
              st::parallel_for(0, 400, 1, [](int64_t, int64_t) { ST_ERROR("kernel failed"); });
            }),
            "kernel failed");
  // The pool still works afterwards.
  std::atomic<int64_t> sum{0};
  st::parallel_for(0, 400, 1, [&](int64_t b, int64_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 400);
}

TEST(Parallel, ThreadCountChanges) {
  ThreadCountGuard guard;
  for (int n : {1, 2, 5, 3}) {
    st::set_num_threads(n);
    EXPECT_EQ(st::get_num_threads(), n);
    std::atomic<int> chunks{0};
    st::parallel_for(0, 1000, 1, [&](int64_t, int64_t) { ++chunks; });
    EXPECT_EQ(chunks.load(), n);
  }
  EXPECT_EQ(error_of([] { st::set_num_threads(0); }),
            "set_num_threads: expected a positive number of threads, got 0");
  st::set_num_threads(2);
  EXPECT_NE(error_of([] {
              st::parallel_for(0, 2, 1, [](int64_t, int64_t) { st::set_num_threads(3); });
            }).find("inside a parallel region"),
            std::string::npos);
}

TEST(Parallel, ConcurrentCallersShareThePool) {
  ThreadCountGuard guard;
  st::set_num_threads(3);
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int k = 0; k < 50; ++k) {
        st::parallel_for(0, 300, 1, [&](int64_t b, int64_t e) { sum += e - b; });
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(sum.load(), 4 * 50 * 300);
}

// The pool size is decided once per process, so these run in a fresh
// process each ("threadsafe" death tests re-execute the binary).
TEST(ParallelDeathTest, EnvironmentSetsThreadCount) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("STABLETORCH_NUM_THREADS", "3", 1);
        std::exit(st::get_num_threads() == 3 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EXIT(
      {
        setenv("STABLETORCH_NUM_THREADS", "many", 1);
        std::exit(st::get_num_threads() == (cores > 0 ? cores : 1) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "STABLETORCH_NUM_THREADS: expected a positive integer, got 'many'");
}

// A forked child has none of the parent's worker threads; parallel_for
// must still work there (on a fresh pool) instead of waiting forever.
TEST(ParallelDeathTest, WorksAfterFork) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads after a "
                  "multi-threaded fork";
#endif
  GTEST_FLAG_SET(death_test_style, "fast");  // fork() without exec
  ThreadCountGuard guard;
  st::set_num_threads(3);
  // Every worker runs a chunk (each waits, up to 10 s, until all three
  // run) before the fork: a thread forked while it is still starting up
  // may hold ASan's allocator lock (its start-up frees memory, and GCC
  // 12's ASan takes no fork handler for that lock), and the child, which
  // inherits the lock but not the thread, would hang creating its pool.
  std::atomic<int> running{0};
  st::parallel_for(0, 3, 1, [&](int64_t, int64_t) {
    ++running;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (running.load() < 3 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
  });
  EXPECT_EQ(running.load(), 3);
  EXPECT_EXIT(
      {
        std::atomic<int64_t> child_sum{0};
        st::parallel_for(0, 300, 1, [&](int64_t b, int64_t e) { child_sum += e - b; });
        std::exit(child_sum.load() == 300 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
