// Constant and version getters, dtype_element_size.
#include "c_api_test_util.h"

#include <stabletorch/version.h>
#include <torch/headeronly/core/ScalarType.h>

using namespace stc_test;
using torch::headeronly::ScalarType;

class ConstantsTest : public CApiTest {};

TEST_F(ConstantsTest, CodesAreTheHeaderOnlyEnums) {
  EXPECT_EQ(aoti_torch_dtype_float32(), static_cast<int32_t>(ScalarType::Float));
  EXPECT_EQ(aoti_torch_dtype_bfloat16(), static_cast<int32_t>(ScalarType::BFloat16));
  EXPECT_EQ(torch_dtype_float8_e8m0fnu(), static_cast<int32_t>(ScalarType::Float8_e8m0fnu));
  EXPECT_EQ(aoti_torch_dtype_float8_e8m0fnu(), torch_dtype_float8_e8m0fnu());
  EXPECT_EQ(aoti_torch_dtype_float4_e2m1fn_x2(), torch_dtype_float4_e2m1fn_x2());
  EXPECT_EQ(torch_dtype_float4_e2m1fn_x2(), static_cast<int32_t>(ScalarType::Float4_e2m1fn_x2));
}

TEST_F(ConstantsTest, ElementSize) {
  EXPECT_EQ(aoti_torch_dtype_element_size(aoti_torch_dtype_float64()), 8u);
  EXPECT_EQ(aoti_torch_dtype_element_size(aoti_torch_dtype_bool()), 1u);
  EXPECT_EQ(aoti_torch_dtype_element_size(aoti_torch_dtype_complex128()), 16u);
  EXPECT_EQ(aoti_torch_dtype_element_size(aoti_torch_dtype_float16()), 2u);
  EXPECT_EQ(aoti_torch_dtype_element_size(-1), 0u);
  EXPECT_NE(last_error().find("aoti_torch_dtype_element_size"), std::string::npos);
  EXPECT_EQ(aoti_torch_dtype_element_size(12 /* QInt8: not in the C ABI */), 0u);
  EXPECT_EQ(aoti_torch_dtype_element_size(1000), 0u);
}

TEST_F(ConstantsTest, Versions) {
  EXPECT_EQ(aoti_torch_abi_version(), TORCH_ABI_VERSION);
  EXPECT_EQ(stabletorch_abi_level(), aoti_torch_abi_version());
  EXPECT_STREQ(stabletorch_version_string(), STABLETORCH_VERSION_STRING);
  EXPECT_EQ(stabletorch_version_number(), static_cast<uint32_t>(STABLETORCH_VERSION_NUMBER));
  EXPECT_GE(aoti_torch_abi_version(), TORCH_VERSION_2_10_0);
}
