// The extension build version handed to torch_call_dispatcher and
// torch_library_impl (c_api/src/build_version.h): callers and kernels built
// before 2.13 (optional slots freed with delete) and after (freed with
// torch_delete_stable_ivalue) are both served, in every pairing; the
// unversioned entry points are served as 2.9.
#include "c_api_test_util.h"

#include <cstring>
#include <string>

using namespace stc_test;

namespace {

constexpr uint64_t level(uint64_t major, uint64_t minor) { return (major << 56) | (minor << 48); }
constexpr uint64_t kBefore213 = level(2, 12);
constexpr uint64_t kFrom213 = level(2, 15);

int64_t as_int(StableIValue v) {
  int64_t x;
  std::memcpy(&x, &v, sizeof(x));
  return x;
}
StableIValue of_int(int64_t x) {
  StableIValue v;
  std::memcpy(&v, &x, sizeof(v));
  return v;
}
StableIValue* as_slot(StableIValue v) {
  return reinterpret_cast<StableIValue*>(static_cast<uintptr_t>(v));
}
StableIValue of_slot(StableIValue* s) {
  return static_cast<StableIValue>(reinterpret_cast<uintptr_t>(s));
}

// A present optional made and freed as headers of each side of 2.13 do.
StableIValue* new_slot(bool from_213, int64_t x) {
  StableIValue* slot = nullptr;
  if (from_213) {
    EXPECT_EQ(torch_new_stable_ivalue(&slot), AOTI_TORCH_SUCCESS) << last_error();
  } else {
    slot = new StableIValue;
  }
  *slot = of_int(x);
  return slot;
}
void free_slot(bool from_213, StableIValue* slot) {
  if (from_213) {
    EXPECT_EQ(torch_delete_stable_ivalue(slot), AOTI_TORCH_SUCCESS) << last_error();
  } else {
    delete slot;
  }
}

// opt_arg(int? x) -> int: x + 1, or -1 for None. opt_ret(int x) -> int?:
// x * 2, None for 0. Each frees and allocates slots as its build level does.
template <bool From213>
void opt_arg_kernel(StableIValue* stack, uint64_t, uint64_t) {
  StableIValue* slot = as_slot(stack[0]);
  int64_t r = -1;
  if (slot != nullptr) {
    r = as_int(*slot) + 1;
    free_slot(From213, slot);
  }
  stack[0] = of_int(r);
}
template <bool From213>
void opt_ret_kernel(StableIValue* stack, uint64_t, uint64_t) {
  const int64_t x = as_int(stack[0]);
  stack[0] = x == 0 ? 0 : of_slot(new_slot(From213, x * 2));
}

class BuildVersionTest : public CApiTest {
 protected:
  void SetUp() override {
    CApiTest::SetUp();
    ASSERT_C_OK(aoti_torch_library_init_def("build_version_test", __FILE__, __LINE__, &def_));
    for (const char* schema :
         {"arg_old(int? x) -> int", "arg_new(int? x) -> int", "arg_unversioned(int? x) -> int",
          "ret_old(int x) -> int?", "ret_new(int x) -> int?"}) {
      ASSERT_C_OK(aoti_torch_library_def(def_, schema));
    }
    ASSERT_C_OK(aoti_torch_library_init_impl("build_version_test", "CompositeExplicitAutograd",
                                             __FILE__, __LINE__, &impl_));
    ASSERT_C_OK(torch_library_impl(impl_, "arg_old", &opt_arg_kernel<false>, kBefore213));
    ASSERT_C_OK(torch_library_impl(impl_, "arg_new", &opt_arg_kernel<true>, kFrom213));
    ASSERT_C_OK(aoti_torch_library_impl(impl_, "arg_unversioned", &opt_arg_kernel<false>));
    ASSERT_C_OK(torch_library_impl(impl_, "ret_old", &opt_ret_kernel<false>, kBefore213));
    ASSERT_C_OK(torch_library_impl(impl_, "ret_new", &opt_ret_kernel<true>, kFrom213));
  }
  void TearDown() override {
    if (impl_ != nullptr) {
      EXPECT_C_OK(aoti_torch_delete_library_object(impl_));
    }
    if (def_ != nullptr) {
      EXPECT_C_OK(aoti_torch_delete_library_object(def_));
    }
    CApiTest::TearDown();
  }

  TorchLibraryHandle def_ = nullptr;
  TorchLibraryHandle impl_ = nullptr;
};

TEST_F(BuildVersionTest, OptionalArgumentsCrossTheLevelsBothWays) {
  for (const char* op : {"build_version_test::arg_old", "build_version_test::arg_new",
                         "build_version_test::arg_unversioned"}) {
    for (const bool caller_213 : {false, true}) {
      const uint64_t version = caller_213 ? kFrom213 : kBefore213;
      StableIValue stack[1] = {of_slot(new_slot(caller_213, 41))};
      ASSERT_C_OK(torch_call_dispatcher(op, "", stack, version)) << op;
      EXPECT_EQ(as_int(stack[0]), 42) << op << " called at " << (caller_213 ? "2.15" : "2.12");
      stack[0] = 0;  // None
      ASSERT_C_OK(torch_call_dispatcher(op, "", stack, version)) << op;
      EXPECT_EQ(as_int(stack[0]), -1) << op;
    }
  }
}

TEST_F(BuildVersionTest, OptionalReturnsCanBeFreedAsTheCallersLevelDoes) {
  for (const char* op : {"build_version_test::ret_old", "build_version_test::ret_new"}) {
    for (const bool caller_213 : {false, true}) {
      StableIValue stack[1] = {of_int(21)};
      ASSERT_C_OK(torch_call_dispatcher(op, "", stack, caller_213 ? kFrom213 : kBefore213)) << op;
      StableIValue* slot = as_slot(stack[0]);
      ASSERT_NE(slot, nullptr) << op;
      EXPECT_EQ(as_int(*slot), 42) << op;
      free_slot(caller_213, slot);
      stack[0] = of_int(0);
      ASSERT_C_OK(torch_call_dispatcher(op, "", stack, caller_213 ? kFrom213 : kBefore213)) << op;
      EXPECT_EQ(stack[0], 0u) << op << ": None";
    }
  }
}

TEST_F(BuildVersionTest, TheUnversionedCallIsAPre213Caller) {
  StableIValue stack[1] = {of_int(5)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("build_version_test::ret_new", "", stack));
  StableIValue* slot = as_slot(stack[0]);
  ASSERT_NE(slot, nullptr);
  EXPECT_EQ(as_int(*slot), 10);
  delete slot;  // as 2.9 headers free it
}

TEST_F(BuildVersionTest, EveryKnownLevelIsServedAndANewerOneRefused) {
  for (uint64_t minor = 9; minor <= 15; ++minor) {
    StableIValue stack[1] = {of_int(3)};
    ASSERT_C_OK(torch_call_dispatcher("build_version_test::ret_old", "", stack, level(2, minor)))
        << "2." << minor;
    delete as_slot(stack[0]);
  }
  StableIValue stack[1] = {of_int(3)};
  EXPECT_C_FAILURE(torch_call_dispatcher("build_version_test::ret_old", "", stack, level(2, 16)),
                   "torch_call_dispatcher", "(2.16.0) is newer than the newest stable-ABI level");
  EXPECT_C_FAILURE(torch_library_impl(impl_, "ret_old", &opt_ret_kernel<false>, level(2, 16)),
                   "torch_library_impl", "(2.16.0) is newer than the newest stable-ABI level");
}

}  // namespace
