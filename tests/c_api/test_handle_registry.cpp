// Handle validation across kinds: null, foreign, deleted, wrong kind;
// live-handle counting; stale handles of reused slots (generations).
#include "c_api_test_util.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

using namespace stc_test;

class HandleRegistryTest : public CApiTest {};

TEST_F(HandleRegistryTest, NullForeignDeletedAndWrongKindAreNamed) {
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(nullptr, &dim), "aoti_torch_get_dim", "null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_get_dim(foreign<AtenTensorHandle>(), &dim), "aoti_torch_get_dim",
                   "foreign tensor handle");
  // An address inside one of our chunks but off a slot boundary.
  AtenTensorHandle t = make_tensor({2});
  auto* off = reinterpret_cast<AtenTensorHandle>(reinterpret_cast<char*>(t) + 8);
  EXPECT_C_FAILURE(aoti_torch_get_dim(off, &dim), "aoti_torch_get_dim", "foreign tensor handle");
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  EXPECT_C_FAILURE(aoti_torch_get_dim(t, &dim), "aoti_torch_get_dim", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(t), "aoti_torch_delete_tensor_object",
                   "already deleted");

  StableListHandle l = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(0, &l));
  EXPECT_C_FAILURE(aoti_torch_get_dim(reinterpret_cast<AtenTensorHandle>(l), &dim),
                   "aoti_torch_get_dim", "expected a tensor handle but got a list handle");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(reinterpret_cast<AtenTensorHandle>(l)),
                   "aoti_torch_delete_tensor_object", "got a list handle");
  ASSERT_C_OK(torch_delete_list(l));
}

TEST_F(HandleRegistryTest, LiveCountFollowsEveryKind) {
  int64_t n0 = -1, n = -1;
  ASSERT_C_OK(stabletorch_live_handle_count(&n0));
  EXPECT_EQ(n0, 0);
  AtenTensorHandle t = make_tensor({1});
  StableListHandle l = nullptr;
  StringHandle s = nullptr;
  StableScalarHandle sc = nullptr;
  TorchLibraryHandle lib = nullptr;
  DeviceGuardHandle g = nullptr;
  StreamHandle st = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(1, &l));
  ASSERT_C_OK(torch_new_string_handle("x", 1, &s));
  ASSERT_C_OK(stabletorch_scalar_from_int(1, &sc));
  ASSERT_C_OK(aoti_torch_library_init_fragment("stc_count_ns", __FILE__, __LINE__, &lib));
  ASSERT_C_OK(aoti_torch_create_device_guard(-1, &g));
  ASSERT_C_OK(aoti_torch_get_current_stream(-1, &st));
  ASSERT_C_OK(stabletorch_live_handle_count(&n));
  EXPECT_EQ(n, 7);
  EXPECT_C_OK(aoti_torch_delete_tensor_object(t));
  EXPECT_C_OK(torch_delete_list(l));
  EXPECT_C_OK(torch_delete_string(s));
  EXPECT_C_OK(stabletorch_delete_scalar(sc));
  EXPECT_C_OK(aoti_torch_delete_library_object(lib));
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
  EXPECT_C_OK(aoti_torch_delete_stream(st));
  EXPECT_C_FAILURE(stabletorch_live_handle_count(nullptr), "stabletorch_live_handle_count",
                   "null output pointer");
}

// The slot a handle names: its bits without the generation (Note [Handle
// generations] in c_api/src/handle_registry.h). Tests only: handles are
// opaque to extensions.
uintptr_t slot_bits(const void* h) {
  return reinterpret_cast<uintptr_t>(h) & ((uintptr_t{1} << 48) - 1);
}

TEST_F(HandleRegistryTest, DeletedHandlesStayDetectableAfterTheirSlotIsReused) {
  // Delete a handle, then create and delete 1,000 more: freed slots are
  // reused at once, so the first one's slot is reused, yet the first
  // handle is still reported as deleted and no new handle equals it.
  AtenTensorHandle first = deleted_tensor();
  std::set<AtenTensorHandle> seen;
  bool reused = false;
  for (int i = 0; i < 1000; ++i) {
    AtenTensorHandle t = nullptr;
    ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&t));
    seen.insert(t);
    reused = reused || slot_bits(t) == slot_bits(first);
    bool defined = true;
    EXPECT_C_FAILURE(aoti_torch_is_defined(first, &defined), "aoti_torch_is_defined",
                     "already deleted");
    ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  }
  EXPECT_TRUE(reused) << "the freed slot was expected to be reused";
  EXPECT_EQ(seen.count(first), 0u);
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(first), "aoti_torch_delete_tensor_object",
                   "already deleted");
}

TEST_F(HandleRegistryTest, AStaleHandleOfALiveSlotOfAnotherKindIsDeletedNotWrongKind) {
  // The slot of a deleted tensor handle now holds a list: the old handle
  // is reported as deleted, never as "a list handle".
  AtenTensorHandle t = make_tensor({1});
  const uintptr_t slot = slot_bits(t);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  StableListHandle l = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(0, &l));
  ASSERT_EQ(slot_bits(l), slot) << "the freed slot was expected to be reused at once";
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(t, &dim), "aoti_torch_get_dim", "already deleted");
  size_t size = 1;
  EXPECT_C_OK(torch_list_size(l, &size));
  EXPECT_EQ(size, 0u);
  ASSERT_C_OK(torch_delete_list(l));
}

TEST_F(HandleRegistryTest, AGenerationNeverIssuedIsReportedAsDeleted) {
  // A live handle with other generation bits (a corrupted or made-up
  // value): its slot is ours, the generation does not match, so it reads
  // as deleted; the live handle itself is unaffected.
  AtenTensorHandle t = make_tensor({3});
  auto* other = reinterpret_cast<AtenTensorHandle>(reinterpret_cast<uintptr_t>(t) ^
                                                   (uintptr_t{0x1234} << 48));
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(other, &dim), "aoti_torch_get_dim", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(other), "aoti_torch_delete_tensor_object",
                   "already deleted");
  ASSERT_C_OK(aoti_torch_get_dim(t, &dim));
  EXPECT_EQ(dim, 1);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
}

TEST_F(HandleRegistryTest, GenerationBitsOverANullAddressAreForeign) {
  // Address bits 0, generation bits set: not null, and no slot lives at
  // address 0 (fuzz_call_dispatcher once found a registry whose empty
  // entries held 0 matching it: the check then read the null slot).
  auto* made_up = reinterpret_cast<AtenTensorHandle>(uintptr_t{1} << 48);
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(made_up, &dim), "aoti_torch_get_dim",
                   "foreign tensor handle");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(made_up), "aoti_torch_delete_tensor_object",
                   "foreign tensor handle");
}

TEST_F(HandleRegistryTest, AddressesPastTheUsablePartOfTheSlotRangeAreForeign) {
  // The slots' address range is reserved whole and made usable a piece at
  // a time: an address in the reserved part beyond what is usable, or a
  // byte past the range, must be rejected without being read (reading it
  // would fault).
  AtenTensorHandle t = make_tensor({2});
  int64_t dim = 0;
  for (uintptr_t ahead : {uintptr_t{1} << 29, (uintptr_t{1} << 30) - 64, uintptr_t{1} << 30}) {
    auto* far = reinterpret_cast<AtenTensorHandle>(reinterpret_cast<uintptr_t>(t) + ahead);
    EXPECT_C_FAILURE(aoti_torch_get_dim(far, &dim), "aoti_torch_get_dim", "foreign tensor handle");
    EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(far), "aoti_torch_delete_tensor_object",
                     "foreign tensor handle");
  }
  // Just below the range's start.
  auto* below =
      reinterpret_cast<AtenTensorHandle>(reinterpret_cast<uintptr_t>(t) - (uintptr_t{1} << 30));
  EXPECT_C_FAILURE(aoti_torch_get_dim(below, &dim), "aoti_torch_get_dim", "foreign tensor handle");
  ASSERT_C_OK(aoti_torch_get_dim(t, &dim));
  EXPECT_EQ(dim, 1);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
}

TEST_F(HandleRegistryTest, WhatOnlyAHandleHoldsIsNotALeak) {
#if defined(__SANITIZE_ADDRESS__)
  // The slots are not heap blocks: LeakSanitizer must be told to scan
  // them, or a tensor that only a live handle holds reads as leaked.
  AtenTensorHandle t = make_tensor({1000});
  EXPECT_EQ(__lsan_do_recoverable_leak_check(), 0);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
#else
  GTEST_SKIP() << "a LeakSanitizer check: runs in the ASan build";
#endif
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
namespace {

// The body of ACappedAddressSpaceStillGetsHandles, in its own process:
// exits 0 when handles can be made and deleted under the cap.
[[noreturn]] void make_handles_under_a_capped_address_space() {
  // The process's current size plus 256 MiB: room for the test, not for
  // a 1 GiB range.
  long pages = 0;
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr || std::fscanf(statm, "%ld", &pages) != 1) std::_Exit(2);
  std::fclose(statm);
  const rlim_t cap =
      static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{256} << 20);
  const rlimit limit{cap, cap};
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(3);
  // More handles than one piece of the range holds (4,096).
  std::vector<AtenTensorHandle> hs(5000, nullptr);
  for (AtenTensorHandle& h : hs) {
    if (aoti_torch_new_uninitialized_tensor(&h) != AOTI_TORCH_SUCCESS) std::_Exit(4);
  }
  for (AtenTensorHandle h : hs) {
    if (aoti_torch_delete_tensor_object(h) != AOTI_TORCH_SUCCESS) std::_Exit(5);
  }
  std::_Exit(0);
}

}  // namespace
#endif

// A process whose address space is capped below the registry's 1 GiB
// range still gets handles, from a smaller range. The death test runs the
// body in a fresh process (threadsafe style), so the range is reserved
// after the cap.
TEST(HandleRegistryDeathTest, ACappedAddressSpaceStillGetsHandles) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers reserve far more address space than a cap would leave";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(make_handles_under_a_capped_address_space(), ::testing::ExitedWithCode(0), "");
#endif
}

TEST_F(HandleRegistryTest, LiveCountIsExactAcrossThreadsThatExited) {
  // Handles made on threads that have exited (their slot caches given
  // back) and deleted here, and the other way round: the count, taken by
  // scanning, follows exactly.
  int64_t n0 = -1, n = -1;
  ASSERT_C_OK(stabletorch_live_handle_count(&n0));
  std::vector<AtenTensorHandle> made(300);
  std::thread([&made] {
    for (auto& h : made) ASSERT_EQ(aoti_torch_new_uninitialized_tensor(&h), AOTI_TORCH_SUCCESS);
  }).join();
  ASSERT_C_OK(stabletorch_live_handle_count(&n));
  EXPECT_EQ(n, n0 + 300);
  for (size_t i = 0; i < 100; ++i) ASSERT_C_OK(aoti_torch_delete_tensor_object(made[i]));
  ASSERT_C_OK(stabletorch_live_handle_count(&n));
  EXPECT_EQ(n, n0 + 200);
  std::thread([&made] {
    for (size_t i = 100; i < made.size(); ++i) {
      ASSERT_EQ(aoti_torch_delete_tensor_object(made[i]), AOTI_TORCH_SUCCESS);
    }
  }).join();
  ASSERT_C_OK(stabletorch_live_handle_count(&n));
  EXPECT_EQ(n, n0);
}

namespace {
// A from_blob deleter that uses the C ABI heavily: makes 600 handles and
// deletes them again, which empties and overfills this thread's slot
// cache (256) while aoti_torch_delete_tensor_object is still running.
void churning_deleter(void* data, void* ctx) {
  std::vector<AtenTensorHandle> hs(600);
  for (auto& h : hs) {
    if (aoti_torch_new_uninitialized_tensor(&h) != AOTI_TORCH_SUCCESS) return;
  }
  for (auto h : hs) aoti_torch_delete_tensor_object(h);
  ++*static_cast<int*>(ctx);
  delete[] static_cast<float*>(data);
}
}  // namespace

TEST_F(HandleRegistryTest, ADeleterThatUsesTheCApiWhileItsHandleIsDeleted) {
  // The slot of the handle being deleted is given back after the payload's
  // destructor (which runs the deleter) has returned: the cache the
  // deleter changed must be read afresh, and every handle stay distinct.
  int calls = 0;
  const int64_t size = 4;
  for (int round = 0; round < 3; ++round) {
    AtenTensorHandle t = nullptr;
    ASSERT_C_OK(torch_from_blob(new float[4]{}, 1, &size, nullptr, 0, aoti_torch_dtype_float32(),
                                aoti_torch_device_type_cpu(), 0, &t, aoti_torch_layout_strided(),
                                nullptr, 0, &churning_deleter, &calls));
    ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
    EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(t), "aoti_torch_delete_tensor_object",
                     "already deleted");
  }
  EXPECT_EQ(calls, 3);
  std::vector<AtenTensorHandle> hs(600);
  for (auto& h : hs) ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&h));
  std::set<uintptr_t> slots;
  for (auto h : hs) slots.insert(slot_bits(h));
  EXPECT_EQ(slots.size(), hs.size()) << "two live handles share a slot";
  for (auto h : hs) ASSERT_C_OK(aoti_torch_delete_tensor_object(h));
}

TEST_F(HandleRegistryTest, ManyHandlesAcrossChunksAndThreads) {
  std::vector<AtenTensorHandle> hs(10000);
  for (auto& h : hs) ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&h));
  std::set<AtenTensorHandle> unique(hs.begin(), hs.end());
  EXPECT_EQ(unique.size(), hs.size());
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&hs, k] {
      for (size_t i = static_cast<size_t>(k); i < hs.size(); i += 4) {
        EXPECT_EQ(aoti_torch_delete_tensor_object(hs[i]), AOTI_TORCH_SUCCESS);
      }
    });
  }
  for (auto& th : threads) th.join();
}
