#include <torch/headeronly/macros/Macros.h>

#include <gtest/gtest.h>

#include <string>

HIDDEN_NAMESPACE_BEGIN(hidden_ns_test, inner)
inline int answer() { return 42; }
HIDDEN_NAMESPACE_END(hidden_ns_test, inner)

namespace {

C10_HOST_DEVICE inline int twice(int x) { return 2 * x; }

TEST(Macros, HostDeviceIsEmptyOnHost) { EXPECT_EQ(twice(21), 42); }

TEST(Macros, HiddenNamespaceNestsNames) {
  EXPECT_EQ(hidden_ns_test::inner::answer(), 42);
}

TEST(Macros, BranchHintsKeepValues) {
  EXPECT_TRUE(C10_LIKELY(3 > 2));
  EXPECT_FALSE(C10_UNLIKELY(2 > 3));
}

TEST(Macros, StringizeAndConcatenate) {
  EXPECT_EQ(std::string(C10_STRINGIZE(abc)), "abc");
  const int C10_CONCATENATE(var, 7) = 7;
  EXPECT_EQ(var7, 7);
}

}  // namespace
