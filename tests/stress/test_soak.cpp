// Soak: one million C-ABI operator calls and a thousand plugin load/unload
// cycles, after which the CPU allocator, the core's live tensors and the C
// ABI's live handles are exactly where they started. The asan preset runs
// the same test under LeakSanitizer, which must find nothing.
#include "stress_util.h"

#include <gtest/gtest.h>

#include <malloc.h>

#include <chrono>
#include <cstdio>

#include <st/core/allocator.h>
#include <st/core/tensor_impl.h>

namespace {

using namespace st_stress;

constexpr int64_t kCalls = 1000000;
constexpr int64_t kCycles = 1000;

struct Levels {
  int64_t handles = 0;
  int64_t tensors = 0;
  int64_t allocations = 0;
  int64_t bytes = 0;
};

Levels levels() {
  Levels l;
  stabletorch_live_handle_count(&l.handles);
  l.tensors = st::live_tensor_count();
  l.allocations = st::cpu_allocator_stats().live_allocations;
  l.bytes = st::cpu_allocator_stats().bytes_in_use;
  return l;
}

void expect_flat(const Levels& before, const char* what) {
  const Levels after = levels();
  EXPECT_EQ(after.handles, before.handles) << what << ": C ABI handles leaked";
  EXPECT_EQ(after.tensors, before.tensors) << what << ": TensorImpls leaked";
  EXPECT_EQ(after.allocations, before.allocations) << what << ": CPU allocations leaked";
  EXPECT_EQ(after.bytes, before.bytes) << what << ": CPU bytes leaked";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(Soak, MillionOperatorCallsLeaveCountersFlat) {
  StableTorchPluginHandle plugin = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &plugin), AOTI_TORCH_SUCCESS) << last_error();
  AtenTensorHandle a = make_filled(4, 2.0f);
  AtenTensorHandle b = make_filled(4, 3.0f);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const Levels before = levels();
  const auto t0 = std::chrono::steady_clock::now();

  // A quarter each: a core operator on tensors, a plugin operator on an
  // int, a plugin operator that calls back into the core, and a call that
  // fails (bad argument) and must release what it was given.
  int64_t failures = 0;
  for (int64_t i = 0; i < kCalls; ++i) {
    switch (i & 3) {
      case 0: {
        StableIValue s[2] = {from_handle(new_ref(a)), from_handle(new_ref(b))};
        if (aoti_torch_call_dispatcher("aten::mul", "Tensor", s) != AOTI_TORCH_SUCCESS) {
          ++failures;
        } else {
          aoti_torch_delete_tensor_object(to_tensor(s[0]));
        }
        break;
      }
      case 1: {
        StableIValue s[1] = {from_int(i)};
        if (aoti_torch_call_dispatcher("counter_a::add_one", "", s) != AOTI_TORCH_SUCCESS ||
            to_int(s[0]) != i + 1) {
          ++failures;
        }
        break;
      }
      case 2: {
        StableIValue s[1] = {from_handle(new_ref(a))};
        if (aoti_torch_call_dispatcher("counter_a::scaled", "", s) != AOTI_TORCH_SUCCESS) {
          ++failures;
        } else {
          aoti_torch_delete_tensor_object(to_tensor(s[0]));
        }
        break;
      }
      default: {
        // A null handle where a Tensor is required: a clean error, and the
        // valid second argument is released by the callee.
        StableIValue s[2] = {from_handle(nullptr), from_handle(new_ref(b))};
        if (aoti_torch_call_dispatcher("aten::mul", "Tensor", s) == AOTI_TORCH_SUCCESS) {
          ++failures;
          aoti_torch_delete_tensor_object(to_tensor(s[0]));
        }
        break;
      }
    }
    if (failures > 0) break;
  }
  const double call_seconds = seconds_since(t0);
  EXPECT_EQ(failures, 0) << "a call misbehaved: " << last_error();
  expect_flat(before, "after 1e6 calls");

  aoti_torch_delete_tensor_object(a);
  aoti_torch_delete_tensor_object(b);
  ASSERT_EQ(stabletorch_unload_library(plugin), AOTI_TORCH_SUCCESS) << last_error();
  std::printf("soak: %lld C-ABI operator calls in %.2f s (%.0f ns/call)\n",
              static_cast<long long>(kCalls), call_seconds, call_seconds * 1e9 / kCalls);
}

// Bytes the C heap holds (glibc; 0 under sanitizers, which replace malloc).
int64_t heap_in_use() { return static_cast<int64_t>(mallinfo2().uordblks); }

TEST(Soak, ThousandLoadUnloadCyclesLeaveCountersFlat) {
  const Levels before = levels();
  const int64_t heap_before = heap_in_use();
  const auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < kCycles; ++i) {
    StableTorchPluginHandle plugin = nullptr;
    ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &plugin), AOTI_TORCH_SUCCESS)
        << "cycle " << i << ": " << last_error();
    StableIValue s[1] = {from_int(i)};
    ASSERT_EQ(aoti_torch_call_dispatcher("counter_a::add_one", "", s), AOTI_TORCH_SUCCESS)
        << "cycle " << i << ": " << last_error();
    ASSERT_EQ(to_int(s[0]), i + 1);
    ASSERT_EQ(stabletorch_unload_library(plugin), AOTI_TORCH_SUCCESS)
        << "cycle " << i << ": " << last_error();
    // The plugin's operators are gone with it, and the error says why.
    ASSERT_NE(aoti_torch_call_dispatcher("counter_a::add_one", "", s), AOTI_TORCH_SUCCESS);
  }
  const double cycle_seconds = seconds_since(t0);
  expect_flat(before, "after 1000 load/unload cycles");
  // Dispatch tables retired by (de)registration are kept for callers that
  // may still read them (Note [Publishing and reclaiming dispatch tables]):
  // a cost per registration change, reported here, never per call.
  std::printf(
      "soak: %lld load/unload cycles in %.2f s (%.0f us/cycle); C heap grew by %lld "
      "bytes per cycle\n",
      static_cast<long long>(kCycles), cycle_seconds, cycle_seconds * 1e6 / kCycles,
      static_cast<long long>((heap_in_use() - heap_before) / kCycles));
}

}  // namespace
