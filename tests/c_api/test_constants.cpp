// Constant and version getters, dtype_element_size.
#include "c_api_test_util.h"

#include <stabletorch/version.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/core/enum_tag.h>

#include <utility>

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

// The tag codes are the Tag ordinals, as PyTorch's getters return them;
// Tag::inplace (6) and Tag::out (14) have no getter.
TEST_F(ConstantsTest, TagCodesAreTheTagOrdinals) {
  using torch::headeronly::Tag;
  const std::pair<int32_t (*)(void), Tag> getters[] = {
      {&torch_tag_core, Tag::core},
      {&torch_tag_cudagraph_unsafe, Tag::cudagraph_unsafe},
      {&torch_tag_data_dependent_output, Tag::data_dependent_output},
      {&torch_tag_dynamic_output_shape, Tag::dynamic_output_shape},
      {&torch_tag_flexible_layout, Tag::flexible_layout},
      {&torch_tag_generated, Tag::generated},
      {&torch_tag_inplace_view, Tag::inplace_view},
      {&torch_tag_maybe_aliasing_or_mutating, Tag::maybe_aliasing_or_mutating},
      {&torch_tag_needs_contiguous_strides, Tag::needs_contiguous_strides},
      {&torch_tag_needs_exact_strides, Tag::needs_exact_strides},
      {&torch_tag_needs_fixed_stride_order, Tag::needs_fixed_stride_order},
      {&torch_tag_nondeterministic_bitwise, Tag::nondeterministic_bitwise},
      {&torch_tag_nondeterministic_seeded, Tag::nondeterministic_seeded},
      {&torch_tag_out_variant, Tag::out_variant},
      {&torch_tag_pointwise, Tag::pointwise},
      {&torch_tag_pt2_compliant_tag, Tag::pt2_compliant_tag},
      {&torch_tag_reduction, Tag::reduction},
      {&torch_tag_view_copy, Tag::view_copy},
  };
  for (const auto& [getter, tag] : getters) EXPECT_EQ(getter(), static_cast<int32_t>(tag));
  EXPECT_EQ(torch_tag_pointwise(), 16);
  EXPECT_EQ(torch_tag_view_copy(), 19);
}
