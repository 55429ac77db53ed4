// Resizing written tensors: resize_impl's checked byte count, resize_output's
// warning rule, resize_output_like's layout.
#include <gtest/gtest.h>

#include <st/core/warning.h>
#include <st/native/resize.h>
#include <st/native/view_ops.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

// resize_impl is the one resize every out= kernel goes through: its byte
// count is checked before the storage or the sizes change, so a size whose
// bytes wrap fails instead of leaving a too-small storage under new sizes.
TEST(NativeResize, RefusesSizesWhoseBytesDoNotFit) {
  constexpr int64_t k2to61 = int64_t{1} << 61;
  constexpr int64_t k2to62 = int64_t{1} << 62;
  Tensor t = make({1, 2, 3}, {3}, ScalarType::Long);
  void* data = t.data_ptr();
  EXPECT_NATIVE_ERROR(
      st::native::resize_impl(t, {k2to61}),
      "resize: byte size of 2305843009213693952 elements of 8 bytes overflows int64");
  EXPECT_NATIVE_ERROR(
      st::native::resize_impl(t, {k2to62, 4}),
      "resize: number of elements of sizes [4611686018427387904, 4] overflows int64");
  EXPECT_NATIVE_ERROR(st::native::resize_impl(t, {INT64_MAX}), "resize: byte size");
  EXPECT_NATIVE_ERROR(st::native::resize_output(t, {k2to61, 1}), "resize: byte size");
  // Unchanged after each failure.
  EXPECT_EQ(shape(t), (std::vector<int64_t>{3}));
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_EQ(t.storage().nbytes(), 24u);
  expect_close(values(t), {1, 2, 3});
  // A storage offset counts too: offset + numel must fit before the bytes.
  Tensor v = st::native::as_strided(t, {1}, {1}, 2);
  EXPECT_NATIVE_ERROR(st::native::resize_impl(v, {INT64_MAX - 1}),
                      "resize: storage offset + number of elements overflows int64: 2 + "
                      "9223372036854775806");
  // Growing within limits still works and keeps the prefix.
  st::native::resize_impl(t, {2, 3});
  EXPECT_EQ(t.storage().nbytes(), 48u);
  EXPECT_EQ(static_cast<const int64_t*>(t.const_data_ptr())[2], 3);
}

TEST(NativeResize, OutputOfTheSameShapeIsLeftAlone) {
  Tensor t = make({1, 2, 3, 4, 5, 6}, {2, 3});
  void* data = t.data_ptr();
  st::WarningCapture cap;
  EXPECT_FALSE(st::native::resize_output(t, {2, 3}));
  EXPECT_TRUE(cap.messages().empty());
  EXPECT_EQ(t.data_ptr(), data);
}

TEST(NativeResize, OutputWithElementsWarnsAndEmptyOneDoesNot) {
  Tensor t = make({1, 2, 3}, {3});
  {
    st::WarningCapture cap;
    EXPECT_TRUE(st::native::resize_output(t, {2, 2}));
    ASSERT_EQ(cap.messages().size(), 1u);
    EXPECT_NE(cap.messages()[0].find("had shape [3], which does not match the required output "
                                     "shape [2, 2]"),
              std::string::npos);
  }
  EXPECT_EQ(shape(t), (std::vector<int64_t>{2, 2}));
  Tensor e = st::empty({0});
  st::WarningCapture cap;
  EXPECT_TRUE(st::native::resize_output(e, {4}));
  EXPECT_TRUE(cap.messages().empty());
  EXPECT_EQ(shape(e), (std::vector<int64_t>{4}));
}

TEST(NativeResize, OutputLikeTakesADenseResultsStrides) {
  Tensor result = st::t(st::zeros({3, 2}));  // [2, 3], strides [1, 2]
  Tensor out = st::empty({0});
  EXPECT_TRUE(st::native::resize_output_like(out, result));
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(std::vector<int64_t>(out.strides().begin(), out.strides().end()),
            (std::vector<int64_t>{1, 2}));
  // Not resized: the layout is the caller's.
  Tensor same = st::empty({2, 3});
  EXPECT_FALSE(st::native::resize_output_like(same, result));
  EXPECT_EQ(std::vector<int64_t>(same.strides().begin(), same.strides().end()),
            (std::vector<int64_t>{3, 1}));
}

}  // namespace
