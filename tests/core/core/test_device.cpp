#include <gtest/gtest.h>

#include <sstream>
#include <unordered_set>

#include <st/core/device.h>

#include "tensor_test_util.h"

namespace {

using st::Device;
using st::DeviceType;
using st::testing::error_of;

TEST(Device, ParseStrings) {
  EXPECT_EQ(Device("cpu"), Device(DeviceType::CPU));
  EXPECT_EQ(Device("cpu").index(), -1);
  EXPECT_EQ(Device("cpu:0").index(), 0);  // kept, as PyTorch's Device keeps it
  EXPECT_EQ(Device("cuda:1"), Device(DeviceType::CUDA, 1));
  EXPECT_FALSE(Device("cuda").has_index());
  EXPECT_EQ(Device("meta").type(), DeviceType::Meta);
  EXPECT_EQ(Device("cuda:12").str(), "cuda:12");
  std::ostringstream os;
  os << Device("cuda:0");
  EXPECT_EQ(os.str(), "cuda:0");
}

TEST(Device, BadStrings) {
  EXPECT_NE(error_of([] { Device("gpu:0"); }).find("device type at start of device string: gpu:0"),
            std::string::npos);
  EXPECT_EQ(error_of([] { Device("cuda:x"); }),
            "Device: invalid device string: 'cuda:x' (expected '<type>' or "
            "'<type>:<index>' with an index in [0, 127])");
  EXPECT_NE(error_of([] { Device("cuda:"); }).find("invalid device string"), std::string::npos);
  EXPECT_NE(error_of([] { Device("cuda:01"); }).find("invalid device string"), std::string::npos);
  EXPECT_NE(error_of([] { Device("cuda:-1"); }).find("invalid device string"), std::string::npos);
  EXPECT_EQ(error_of([] { Device(""); }), "Device: device string must not be empty");
  EXPECT_EQ(error_of([] { Device("cpu:1"); }),
            "Device: CPU device index must be -1 or zero, got 1");
  EXPECT_EQ(error_of([] { Device(DeviceType::CUDA, -2); }),
            "Device: device index must be -1 or non-negative, got -2");
}

TEST(Device, Hashable) {
  std::unordered_set<Device> set = {Device("cpu"), Device("cuda:0"), Device("cuda:1"),
                                    Device("cuda:0")};
  EXPECT_EQ(set.size(), 3u);
}

}  // namespace
