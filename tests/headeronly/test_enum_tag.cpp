#include <torch/headeronly/core/enum_tag.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace {

using torch::headeronly::Tag;

// PyTorch 2.15's order (tags.yaml, sorted); the values an extension's
// source means must be the same against either SDK.
TEST(EnumTag, OrdinalsMatchPyTorch) {
  EXPECT_EQ(static_cast<int>(Tag::core), 0);
  EXPECT_EQ(static_cast<int>(Tag::cudagraph_unsafe), 1);
  EXPECT_EQ(static_cast<int>(Tag::data_dependent_output), 2);
  EXPECT_EQ(static_cast<int>(Tag::dynamic_output_shape), 3);
  EXPECT_EQ(static_cast<int>(Tag::flexible_layout), 4);
  EXPECT_EQ(static_cast<int>(Tag::generated), 5);
  EXPECT_EQ(static_cast<int>(Tag::inplace), 6);
  EXPECT_EQ(static_cast<int>(Tag::inplace_view), 7);
  EXPECT_EQ(static_cast<int>(Tag::maybe_aliasing_or_mutating), 8);
  EXPECT_EQ(static_cast<int>(Tag::needs_contiguous_strides), 9);
  EXPECT_EQ(static_cast<int>(Tag::needs_exact_strides), 10);
  EXPECT_EQ(static_cast<int>(Tag::needs_fixed_stride_order), 11);
  EXPECT_EQ(static_cast<int>(Tag::nondeterministic_bitwise), 12);
  EXPECT_EQ(static_cast<int>(Tag::nondeterministic_seeded), 13);
  EXPECT_EQ(static_cast<int>(Tag::out), 14);
  EXPECT_EQ(static_cast<int>(Tag::out_variant), 15);
  EXPECT_EQ(static_cast<int>(Tag::pointwise), 16);
  EXPECT_EQ(static_cast<int>(Tag::pt2_compliant_tag), 17);
  EXPECT_EQ(static_cast<int>(Tag::reduction), 18);
  EXPECT_EQ(static_cast<int>(Tag::view_copy), 19);
}

TEST(EnumTag, LayoutAndSpellingsMatchPyTorch) {
  static_assert(std::is_same_v<std::underlying_type_t<Tag>, int>);
  static_assert(std::is_same_v<at::Tag, torch::headeronly::Tag>);
  EXPECT_EQ(sizeof(Tag), sizeof(int));
}

}  // namespace
