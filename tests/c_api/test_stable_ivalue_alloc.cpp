// torch_new_stable_ivalue / torch_delete_stable_ivalue.
#include "c_api_test_util.h"

using namespace stc_test;

class StableIValueAllocTest : public CApiTest {};

TEST_F(StableIValueAllocTest, NewIsZeroAndDeletable) {
  StableIValue* p = nullptr;
  ASSERT_C_OK(torch_new_stable_ivalue(&p));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 0u);
  ASSERT_C_OK(torch_delete_stable_ivalue(p));
  // The same allocator as an extension's `new StableIValue`.
  ASSERT_C_OK(torch_delete_stable_ivalue(new StableIValue(5)));
}

TEST_F(StableIValueAllocTest, NullOutputFailsAndDeletingNullIsANoOp) {
  EXPECT_C_FAILURE(torch_new_stable_ivalue(nullptr), "torch_new_stable_ivalue", "null output");
  // As every delete function (and PyTorch's, a `delete` of null).
  EXPECT_C_OK(torch_delete_stable_ivalue(nullptr));
}
