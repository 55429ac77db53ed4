#include <torch/headeronly/util/Deprecated.h>

#include <gtest/gtest.h>

namespace {

// Declarations marked with the macros still compile and work; only their
// use warns (silenced here, since the test's point is that they exist).
C10_DEPRECATED inline int old_api() { return 1; }
C10_DEPRECATED_MESSAGE("use new_api") inline int older_api() { return 2; }
C10_DEFINE_DEPRECATED_USING(OldInt, int)

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
TEST(Deprecated, MarkedDeclarationsStillWork) {
  EXPECT_EQ(old_api() + older_api(), 3);
  OldInt value = 4;
  EXPECT_EQ(value, 4);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

}  // namespace
