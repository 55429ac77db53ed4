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
