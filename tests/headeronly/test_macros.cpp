#include <torch/headeronly/macros/Macros.h>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace c10 {
inline int hidden_probe_value() { return 7; }
}  // namespace c10

C10_NODISCARD static int nodiscard_function() { return 1; }

HIDDEN_NAMESPACE_BEGIN(hidden_ns_test, inner)
inline int answer() { return 42; }
HIDDEN_NAMESPACE_END(hidden_ns_test, inner)

namespace {

C10_HOST_DEVICE inline int twice(int x) { return 2 * x; }

TEST(Macros, HostDeviceIsEmptyOnHost) { EXPECT_EQ(twice(21), 42); }

TEST(Macros, HiddenNamespaceNestsNames) { EXPECT_EQ(hidden_ns_test::inner::answer(), 42); }

TEST(Macros, BranchHintsKeepValues) {
  EXPECT_TRUE(C10_LIKELY(3 > 2));
  EXPECT_FALSE(C10_UNLIKELY(2 > 3));
}

TEST(Macros, StringizeAndConcatenate) {
  EXPECT_EQ(std::string(C10_STRINGIZE(abc)), "abc");
  const int C10_CONCATENATE(var, 7) = 7;
  EXPECT_EQ(var7, 7);
}

struct NoCopy {
  NoCopy() = default;
  C10_DISABLE_COPY_AND_ASSIGN(NoCopy);
};

TEST(Macros, UniqueIdsAndAnonymousVariables) {
  constexpr int a = C10_UID;
  constexpr int b = C10_UID;
  EXPECT_NE(a, b);
  C10_UNUSED const int C10_ANONYMOUS_VARIABLE(tmp_) = 1;
  C10_UNUSED const int C10_ANONYMOUS_VARIABLE(tmp_) = 2;  // another name: no clash
  static_assert(!std::is_copy_constructible_v<NoCopy>);
  static_assert(!std::is_copy_assignable_v<NoCopy>);
}

TEST(Macros, AttributesAndConstants) {
  C10_UNUSED int unused = 0;
  EXPECT_EQ(nodiscard_function(), 1);
  int x = 3;
  int* C10_RESTRICT p = &x;
  EXPECT_EQ(*p, 3);
  EXPECT_EQ(C10_WARP_SIZE, 32);
  EXPECT_LE(C10_WARP_SIZE_LOWER_BOUND, C10_WARP_SIZE_UPPER_BOUND);
  EXPECT_TRUE(C10_UNLIKELY_OR_CONST(x == 3));
  EXPECT_EQ(C10_HAS_CPP_ATTRIBUTE(nodiscard) > 0, true);
  EXPECT_TRUE(C10_ASAN_ENABLED == 0 || C10_ASAN_ENABLED == 1);
  EXPECT_TRUE(C10_UBSAN_ENABLED == 0 || C10_UBSAN_ENABLED == 1);
  EXPECT_EQ(C10_MACRO_EXPAND(4), 4);
  CONSTEXPR_EXCEPT_WIN_CUDA int c = 5;
  EXPECT_EQ(c, 5);
}

TEST(Macros, KernelAssertPassesWhenTrue) {
  // Host code can use the device assertion: a true condition does nothing
  // (a false one would abort through __assert_fail).
  int evaluated = 0;
  CUDA_KERNEL_ASSERT(++evaluated == 1);
  CUDA_KERNEL_ASSERT_MSG(evaluated == 1, "evaluated once");
  CUDA_KERNEL_ASSERT_PRINTF(evaluated == 1, "value %d", evaluated);
  CUDA_KERNEL_ASSERT_VERBOSE(evaluated == 1, "value %d", evaluated);
  EXPECT_EQ(evaluated, 1);
}

TEST(Macros, KernelAssertAbortsWhenFalse) {
  EXPECT_DEATH({ CUDA_KERNEL_ASSERT(1 + 1 == 3); }, "1 \\+ 1 == 3");
}

TEST(Macros, NamespacesAtSeesC10) {
  // at:: sees everything c10 declares, as in PyTorch.
  EXPECT_EQ(at::hidden_probe_value(), 7);
}

}  // namespace
