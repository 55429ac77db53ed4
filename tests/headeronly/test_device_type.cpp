#include <torch/headeronly/core/DeviceType.h>

#include <gtest/gtest.h>

#include <vector>

#include <sstream>

namespace {

using torch::headeronly::DeviceType;

TEST(DeviceType, OrdinalsMatchC10) {
  const std::pair<DeviceType, int> expected[] = {
      {DeviceType::CPU, 0},          {DeviceType::CUDA, 1},
      {DeviceType::MKLDNN, 2},       {DeviceType::OPENGL, 3},
      {DeviceType::OPENCL, 4},       {DeviceType::IDEEP, 5},
      {DeviceType::HIP, 6},          {DeviceType::FPGA, 7},
      {DeviceType::MAIA, 8},         {DeviceType::XLA, 9},
      {DeviceType::Vulkan, 10},      {DeviceType::Metal, 11},
      {DeviceType::XPU, 12},         {DeviceType::MPS, 13},
      {DeviceType::Meta, 14},        {DeviceType::HPU, 15},
      {DeviceType::VE, 16},          {DeviceType::Lazy, 17},
      {DeviceType::IPU, 18},         {DeviceType::MTIA, 19},
      {DeviceType::PrivateUse1, 20}, {DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES, 21},
  };
  for (const auto& [type, ordinal] : expected) {
    EXPECT_EQ(static_cast<int>(type), ordinal);
  }
  static_assert(sizeof(DeviceType) == 1);
}

TEST(DeviceType, Names) {
  using torch::headeronly::DeviceTypeName;
  EXPECT_EQ(DeviceTypeName(DeviceType::CUDA), "CUDA");
  EXPECT_EQ(DeviceTypeName(DeviceType::CUDA, true), "cuda");
  EXPECT_EQ(DeviceTypeName(DeviceType::PrivateUse1, true), "privateuseone");
  EXPECT_EQ(DeviceTypeName(DeviceType::Meta, false), "META");
  EXPECT_THROW(DeviceTypeName(static_cast<DeviceType>(42)), std::runtime_error);
  std::ostringstream os;
  os << DeviceType::CPU;
  EXPECT_EQ(os.str(), "cpu");
  EXPECT_TRUE(torch::headeronly::isValidDeviceType(DeviceType::MTIA));
  EXPECT_FALSE(torch::headeronly::isValidDeviceType(static_cast<DeviceType>(21)));
  static_assert(c10::kCUDA == DeviceType::CUDA);
}

TEST(DeviceType, ForAllBackendDeviceTypes) {
  std::vector<DeviceType> backends;
#define DT_TEST_COLLECT_(name, extra) backends.push_back(DeviceType::name);
  C10_FORALL_BACKEND_DEVICE_TYPES(DT_TEST_COLLECT_, unused)
#undef DT_TEST_COLLECT_
  ASSERT_EQ(backends.size(), 13u);
  EXPECT_EQ(backends.front(), DeviceType::CPU);
  EXPECT_EQ(backends.back(), DeviceType::PrivateUse1);
}

}  // namespace
