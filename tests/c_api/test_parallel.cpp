// torch_parallel_for, torch_get_thread_idx, torch_get_num_threads.
#include "c_api_test_util.h"

#include <atomic>
#include <stdexcept>

using namespace stc_test;

class ParallelTest : public CApiTest {};

namespace {
struct Sum {
  std::atomic<int64_t> total{0};
  std::atomic<int> bad_idx{0};
  uint32_t num_threads = 1;
};
void add_range(int64_t b, int64_t e, void* ctx) {
  auto* s = static_cast<Sum*>(ctx);
  uint32_t idx = 99;
  if (torch_get_thread_idx(&idx) != AOTI_TORCH_SUCCESS || idx >= s->num_threads) ++s->bad_idx;
  int64_t local = 0;
  for (int64_t i = b; i < e; ++i) local += i;
  s->total += local;
}
void throwing(int64_t, int64_t, void*) { throw std::runtime_error("chunk failed"); }
}  // namespace

TEST_F(ParallelTest, CoversTheRangeOnce) {
  Sum s;
  ASSERT_C_OK(torch_get_num_threads(&s.num_threads));
  EXPECT_GE(s.num_threads, 1u);
  ASSERT_C_OK(torch_parallel_for(0, 100000, 1000, &add_range, &s));
  EXPECT_EQ(s.total.load(), int64_t{100000} * 99999 / 2);
  EXPECT_EQ(s.bad_idx.load(), 0);
  uint32_t idx = 7;
  ASSERT_C_OK(torch_get_thread_idx(&idx));
  EXPECT_EQ(idx, 0u);
  ASSERT_C_OK(torch_parallel_for(5, 5, 1, &add_range, &s));  // empty range
}

TEST_F(ParallelTest, BadInputAndThrowingBodies) {
  Sum s;
  EXPECT_C_FAILURE(torch_parallel_for(0, 10, 1, nullptr, &s), "torch_parallel_for",
                   "func: null function");
  EXPECT_C_FAILURE(torch_parallel_for(0, 10, -1, &add_range, &s), "torch_parallel_for",
                   "grain_size");
  EXPECT_C_FAILURE(torch_parallel_for(0, 100000, 10, &throwing, nullptr), "torch_parallel_for",
                   "chunk failed");
  // More than INT64_MAX items: refused before any chunk runs.
  EXPECT_C_FAILURE(torch_parallel_for(INT64_MIN, INT64_MAX, 1, &add_range, &s),
                   "torch_parallel_for", "overflows int64");
  EXPECT_EQ(s.total.load(), 0);
  EXPECT_C_FAILURE(torch_get_thread_idx(nullptr), "torch_get_thread_idx", "null output");
  EXPECT_C_FAILURE(torch_get_num_threads(nullptr), "torch_get_num_threads", "null output");
}
