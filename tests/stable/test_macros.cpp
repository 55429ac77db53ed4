// macros.h: TORCH_DYNAMIC_VERSION_CALL and TORCH_DYNAMIC_VERSION_CALL_2_13_0.
#include "stable_test_util.h"

#include <torch/csrc/stable/macros.h>

#include <cstring>

namespace stable_test {
namespace {

const char* no_message() { return "fallback"; }
int32_t plus_one_fallback(int32_t x) { return x + 1; }

class StableMacrosTest : public StableTest {};

// At a 2.13+ target the 2.13 form is a plain call of the shim.
TEST_F(StableMacrosTest, DynamicVersionCall213CallsTheShim) {
  const char* what =
      TORCH_DYNAMIC_VERSION_CALL_2_13_0(torch_exception_get_what_without_backtrace, no_message);
  ASSERT_NE(what, nullptr);
  EXPECT_STRNE(what, "fallback");
}

// The run-time form (what the 2.13 form expands to below 2.13): found in
// the running core when its level has it, else the fallback.
TEST_F(StableMacrosTest, DynamicVersionCallLooksUpOrFallsBack) {
  const char* what = TORCH_DYNAMIC_VERSION_CALL(
      TORCH_VERSION_2_13_0, torch_exception_get_what_without_backtrace, no_message);
  ASSERT_NE(what, nullptr);
  EXPECT_STRNE(what, "fallback");
  const char* old = TORCH_DYNAMIC_VERSION_CALL(
      TORCH_VERSION_2_16_0, torch_exception_get_what_without_backtrace, no_message);
  EXPECT_STREQ(old, "fallback");  // a level newer than this core's
  EXPECT_EQ(TORCH_DYNAMIC_VERSION_CALL(TORCH_VERSION_2_13_0, stabletorch_no_such_function,
                                       plus_one_fallback, 41),
            42);
}

}  // namespace
}  // namespace stable_test
