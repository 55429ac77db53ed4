// Handle validation across kinds: null, foreign, deleted, wrong kind;
// live-handle counting; reuse after the quarantine.
#include "c_api_test_util.h"

#include <set>
#include <thread>

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

TEST_F(HandleRegistryTest, DeletedHandlesStayDetectableThroughTheQuarantine) {
  // Delete a handle, then create and delete 32 more: the first is still
  // reported as deleted (its slot is not reused yet).
  AtenTensorHandle first = deleted_tensor();
  std::set<AtenTensorHandle> seen;
  for (int i = 0; i < 32; ++i) {
    AtenTensorHandle t = nullptr;
    ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&t));
    seen.insert(t);
    ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  }
  EXPECT_EQ(seen.count(first), 0u);
  bool defined = true;
  EXPECT_C_FAILURE(aoti_torch_is_defined(first, &defined), "aoti_torch_is_defined",
                   "already deleted");
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
