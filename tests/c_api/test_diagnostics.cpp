// aoti_torch_warn goes to the core's warning handler; never fails.
#include "c_api_test_util.h"

#include <st/core/warning.h>

using namespace stc_test;

class DiagnosticsTest : public CApiTest {};

TEST_F(DiagnosticsTest, WarnReachesTheCoreHandler) {
  st::WarningCapture capture;
  aoti_torch_warn("my_kernel", "ext.cpp", 12, "careful");
  aoti_torch_warn(nullptr, nullptr, 0, nullptr);  // tolerated
  ASSERT_EQ(capture.messages().size(), 2u);
  EXPECT_EQ(capture.messages()[0], "careful (warning from my_kernel at ext.cpp:12)");
}

TEST_F(DiagnosticsTest, CheckThrowsOnlyWhenFalseNamingWhere) {
  EXPECT_NO_THROW(aoti_torch_check(true, "f", "x.cpp", 1, "unused"));
  try {
    aoti_torch_check(false, "my_kernel", "ext.cpp", 7, "x must be positive");
    FAIL() << "aoti_torch_check(false, ...) returned";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "x must be positive (check failed in my_kernel at ext.cpp:7)");
  }
  EXPECT_THROW(aoti_torch_check(false, nullptr, nullptr, 0, nullptr), std::runtime_error);
}

TEST_F(DiagnosticsTest, CheckMacroMessages) {
  const int n = -3;
  try {
    AOTI_TORCH_CHECK(n > 0, "n is ", n, ", expected > 0");
    FAIL() << "AOTI_TORCH_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("n is -3, expected > 0 (check failed in ", 0), 0u) << what;
    EXPECT_NE(what.find("test_diagnostics.cpp:"), std::string::npos) << what;
  }
  try {
    AOTI_TORCH_CHECK(n == 0);
    FAIL() << "AOTI_TORCH_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("Expected n == 0 to be true, but got false.", 0), 0u)
        << e.what();
  }
  AOTI_TORCH_CHECK(n < 0, "never shown");  // passes: nothing happens
  st::WarningCapture capture;
  AOTI_TORCH_WARN(low memory);
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_EQ(capture.messages()[0].rfind("low memory (warning from ", 0), 0u);
}
