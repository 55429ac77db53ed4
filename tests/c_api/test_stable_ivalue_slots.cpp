// Optional slots checked before they are read or freed (Note [Checked
// optional slots] in c_api/src/stable_ivalue_slots.h): a bare handle, an
// impossible address or a freed tracked slot where a pointer to a heap
// StableIValue belongs is an error naming the argument, the schema type and
// what was found; valid slots (tracked or an extension's own) still work.
#include "c_api_test_util.h"

#include <cstdint>

using namespace stc_test;

namespace {

StableScalarHandle int_scalar(int64_t v) {
  StableScalarHandle s = nullptr;
  EXPECT_EQ(stabletorch_scalar_from_int(v, &s), AOTI_TORCH_SUCCESS) << last_error();
  return s;
}

bool is_live(AtenTensorHandle t) {
  bool defined = false;
  return aoti_torch_is_defined(t, &defined) == AOTI_TORCH_SUCCESS;
}

}  // namespace

class StableIValueSlotsTest : public CApiTest {
 protected:
  void SetUp() override {
    CApiTest::SetUp();
    if (!has_op("aten::clamp") || !has_op("aten::clamp", "Tensor"))
      GTEST_SKIP() << "no aten::clamp";
  }
};

TEST_F(StableIValueSlotsTest, BareScalarHandleInScalarOptionalIsAnError) {
  AtenTensorHandle self = make_floats({-2, 0, 2});
  StableScalarHandle min = int_scalar(-1);
  StableIValue stack[3] = {from_ptr(self), from_ptr(min), 0};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::clamp", "", stack),
                   "aoti_torch_call_dispatcher",
                   "argument 1 'min': expected Scalar? (0, or a pointer to a heap StableIValue "
                   "from torch_new_stable_ivalue) but got a scalar handle");
  // Every argument was stolen, the bare handle too (the fixture checks no
  // handle is left).
  EXPECT_FALSE(is_live(self));
}

TEST_F(StableIValueSlotsTest, BareTensorHandleInTensorOptionalIsAnError) {
  AtenTensorHandle self = make_floats({-2, 0, 2});
  AtenTensorHandle min = make_floats({-1});
  StableIValue stack[3] = {from_ptr(self), from_ptr(min), 0};
  EXPECT_C_FAILURE(torch_call_dispatcher("aten::clamp", "Tensor", stack, TORCH_ABI_VERSION),
                   "torch_call_dispatcher",
                   "argument 1 'min': expected Tensor? (0, or a pointer to a heap StableIValue "
                   "from torch_new_stable_ivalue) but got a tensor handle");
  EXPECT_FALSE(is_live(min));
}

TEST_F(StableIValueSlotsTest, ImpossibleAddressesAreNamed) {
  struct Case {
    StableIValue bits;
    const char* why;
  };
  const Case cases[] = {
      {5, "misaligned"},
      {8, "below the lowest mappable address"},
      {0x3ff0000000000000ull, "above the 48-bit user address space"},  // the double 1.0
  };
  for (const Case& c : cases) {
    StableIValue stack[3] = {from_ptr(make_floats({1})), c.bits, 0};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::clamp", "", stack), "argument 1 'min'",
                     c.why);
  }
  StableIValue dead[3] = {from_ptr(make_floats({1})), 0, from_ptr(deleted_tensor())};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::clamp", "Tensor", dead), "argument 2 'max'",
                   "but got an already deleted handle");
}

TEST_F(StableIValueSlotsTest, TrackedAndExtensionSlotsStillWork) {
  StableIValue* min = nullptr;
  ASSERT_C_OK(torch_new_stable_ivalue(&min));
  *min = from_ptr(int_scalar(-1));
  StableIValue* max = new StableIValue(from_ptr(int_scalar(1)));  // as the stable headers do
  StableIValue stack[3] = {from_ptr(make_floats({-2, 0, 2})), from_ptr(min), from_ptr(max)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("aten::clamp", "", stack));
  AtenTensorHandle out = to_ptr<AtenTensorHandle>(stack[0]);
  EXPECT_EQ(read_floats(out), (std::vector<float>{-1, 0, 1}));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(out));
  // The runtime freed the tracked slot it took: freeing it again is known.
  EXPECT_C_FAILURE(torch_delete_stable_ivalue(min), "torch_delete_stable_ivalue",
                   "a StableIValue slot that was already freed");
}

TEST_F(StableIValueSlotsTest, AFreedTrackedSlotPassedAgainIsAnError) {
  StableIValue* min = nullptr;
  ASSERT_C_OK(torch_new_stable_ivalue(&min));
  ASSERT_C_OK(torch_delete_stable_ivalue(min));
  StableIValue stack[3] = {from_ptr(make_floats({1})), from_ptr(min), 0};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::clamp", "", stack), "argument 1 'min'",
                   "already freed");
  EXPECT_C_FAILURE(torch_delete_stable_ivalue(min), "torch_delete_stable_ivalue", "already freed");
}

TEST_F(StableIValueSlotsTest, DeletingAHandleAsASlotIsRefused) {
  AtenTensorHandle t = make_floats({1});
  EXPECT_C_FAILURE(torch_delete_stable_ivalue(reinterpret_cast<StableIValue*>(t)),
                   "torch_delete_stable_ivalue",
                   "value: expected a StableIValue slot (torch_new_stable_ivalue) but got a "
                   "tensor handle");
  EXPECT_TRUE(is_live(t));  // refused, not taken
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  EXPECT_C_FAILURE(torch_delete_stable_ivalue(reinterpret_cast<StableIValue*>(t)),
                   "torch_delete_stable_ivalue", "already deleted handle");
  EXPECT_C_FAILURE(torch_delete_stable_ivalue(reinterpret_cast<StableIValue*>(uintptr_t{12})),
                   "torch_delete_stable_ivalue", "misaligned");
}

TEST_F(StableIValueSlotsTest, OneSlotForTwoOptionalsIsRefused) {
  StableIValue* bound = new StableIValue(from_ptr(int_scalar(1)));
  StableIValue stack[3] = {from_ptr(make_floats({1})), from_ptr(bound), from_ptr(bound)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::clamp", "", stack), "argument 2 'max'",
                   "the same optional slot as argument 1 'min'");
  // Released once: the scalar inside (the fixture checks) and the slot.
}
