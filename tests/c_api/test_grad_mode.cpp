// Grad mode: thread-local, default on.
#include "c_api_test_util.h"

#include <thread>

using namespace stc_test;

class GradModeTest : public CApiTest {};

TEST_F(GradModeTest, SetAndRestorePerThread) {
  EXPECT_TRUE(aoti_torch_grad_mode_is_enabled());
  aoti_torch_grad_mode_set_enabled(false);
  EXPECT_FALSE(aoti_torch_grad_mode_is_enabled());
  bool other = false;
  std::thread([&other] { other = aoti_torch_grad_mode_is_enabled(); }).join();
  EXPECT_TRUE(other);
  aoti_torch_grad_mode_set_enabled(true);
  EXPECT_TRUE(aoti_torch_grad_mode_is_enabled());
}
