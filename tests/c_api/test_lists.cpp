// StableListHandle functions.
#include "c_api_test_util.h"

using namespace stc_test;

class ListsTest : public CApiTest {};

TEST_F(ListsTest, PushGetSetSize) {
  StableListHandle l = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(2, &l));
  size_t n = 9;
  ASSERT_C_OK(torch_list_size(l, &n));
  EXPECT_EQ(n, 0u);
  ASSERT_C_OK(torch_list_push_back(l, 10));
  ASSERT_C_OK(torch_list_push_back(l, 20));
  ASSERT_C_OK(torch_list_push_back(l, 30));  // beyond the reserve
  ASSERT_C_OK(torch_list_set_item(l, 1, 21));
  StableIValue v = 0;
  ASSERT_C_OK(torch_list_get_item(l, 1, &v));
  EXPECT_EQ(v, 21u);
  ASSERT_C_OK(torch_list_size(l, &n));
  EXPECT_EQ(n, 3u);
  ASSERT_C_OK(torch_delete_list(l));
}

TEST_F(ListsTest, BadInput) {
  StableListHandle l = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(0, &l));
  StableIValue v = 7;
  size_t n = 0;
  EXPECT_C_FAILURE(torch_list_get_item(l, 0, &v), "torch_list_get_item",
                   "index 0 is out of range for a list of size 0");
  EXPECT_EQ(v, 7u);
  EXPECT_C_FAILURE(torch_list_set_item(l, 3, 1), "torch_list_set_item", "out of range");
  EXPECT_C_FAILURE(torch_list_get_item(l, 0, nullptr), "torch_list_get_item", "null output");
  EXPECT_C_FAILURE(torch_list_size(l, nullptr), "torch_list_size", "null output");
  EXPECT_C_FAILURE(torch_new_list_reserve_size(0, nullptr), "torch_new_list_reserve_size",
                   "null output");
  EXPECT_C_FAILURE(torch_new_list_reserve_size(~size_t{0}, &l), "torch_new_list_reserve_size",
                   "cannot reserve");
  ASSERT_C_OK(torch_delete_list(l));
  EXPECT_C_FAILURE(torch_list_size(l, &n), "torch_list_size", "already deleted");
  EXPECT_C_FAILURE(torch_list_push_back(l, 1), "torch_list_push_back", "already deleted");
  EXPECT_C_FAILURE(torch_delete_list(l), "torch_delete_list", "already deleted");
  EXPECT_C_FAILURE(torch_list_size(nullptr, &n), "torch_list_size", "null list handle");
  EXPECT_C_FAILURE(torch_list_size(foreign<StableListHandle>(), &n), "torch_list_size",
                   "foreign list handle");
  AtenTensorHandle t = make_tensor({1});
  EXPECT_C_FAILURE(torch_list_size(reinterpret_cast<StableListHandle>(t), &n), "torch_list_size",
                   "expected a list handle but got a tensor handle");
  aoti_torch_delete_tensor_object(t);
  EXPECT_C_OK(torch_delete_list(nullptr));
}
