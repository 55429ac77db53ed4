// torch_parse_device_string.
#include "c_api_test_util.h"

using namespace stc_test;

class DeviceParseTest : public CApiTest {};

TEST_F(DeviceParseTest, ParseDeviceString) {
  uint32_t type = 99;
  int32_t index = 99;
  ASSERT_C_OK(torch_parse_device_string("cuda:1", &type, &index));
  EXPECT_EQ(type, static_cast<uint32_t>(aoti_torch_device_type_cuda()));
  EXPECT_EQ(index, 1);
  ASSERT_C_OK(torch_parse_device_string("cpu", &type, &index));
  EXPECT_EQ(type, static_cast<uint32_t>(aoti_torch_device_type_cpu()));
  EXPECT_EQ(index, -1);
  ASSERT_C_OK(torch_parse_device_string("cpu:0", &type, &index));
  EXPECT_EQ(index, 0);
  ASSERT_C_OK(torch_parse_device_string("privateuseone:2", &type, &index));
  EXPECT_EQ(type, static_cast<uint32_t>(aoti_torch_device_type_privateuse1()));
  EXPECT_EQ(index, 2);
  EXPECT_C_FAILURE(torch_parse_device_string("gpu:0", &type, &index), "torch_parse_device_string",
                   "gpu");
  EXPECT_C_FAILURE(torch_parse_device_string("cuda:x", &type, &index), "torch_parse_device_string",
                   "cuda:x");
  EXPECT_C_FAILURE(torch_parse_device_string(nullptr, &type, &index), "torch_parse_device_string",
                   "null string");
  EXPECT_C_FAILURE(torch_parse_device_string("cpu", nullptr, &index), "torch_parse_device_string",
                   "null output");
}
