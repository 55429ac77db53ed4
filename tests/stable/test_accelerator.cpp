// accelerator.h without an accelerator: the CPU's stream (id 0) has no
// native handle, as in PyTorch (c10 refuses it for the CPU).
#include "stable_test_util.h"

#include <torch/csrc/stable/accelerator.h>

#include <stdexcept>
#include <string>

namespace stable_test {
namespace {

namespace acc = torch::stable::accelerator;

class StableAcceleratorTest : public StableTest {};

TEST_F(StableAcceleratorTest, CpuStreamHasNoNativeHandle) {
  const acc::Stream s = acc::getCurrentStream(-1);
  EXPECT_EQ(s.id(), 0);
  try {
    (void)s.nativeHandle();
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("torch_stream_native_handle"), std::string::npos) << what;
    EXPECT_NE(what.find("the CPU has no native stream handle"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace stable_test
