// Memory-overlap checks for written tensors.
#include <gtest/gtest.h>

#include <st/native/memory_overlap.h>
#include <st/native/view_ops.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeMemoryOverlap, InternalOverlapIsAStrideZeroDimOfSeveralElements) {
  Tensor t = make({1, 2, 3}, {3});
  EXPECT_FALSE(st::native::has_internal_overlap(t));
  Tensor row = make({1, 2, 3}, {1, 3});
  EXPECT_TRUE(st::native::has_internal_overlap(st::native::expand(row, {2, 3})));
  // Expanding a size-1 dim to size 1 shares nothing.
  EXPECT_FALSE(st::native::has_internal_overlap(st::native::expand(row, {1, 3})));
  // Gaps are not overlap.
  Tensor gappy = st::native::as_strided(make({1, 2, 3, 4, 5, 6}, {6}), {3}, {2}, 0);
  EXPECT_FALSE(st::native::has_internal_overlap(gappy));
  EXPECT_NATIVE_ERROR(
      st::native::assert_no_internal_overlap(st::native::expand(row, {2, 3}), "add_"),
      "add_: unsupported operation: more than one element of the written-to tensor refers to "
      "a single memory location");
}

TEST(NativeMemoryOverlap, PartialOverlapIsRefusedFullOverlapAllowed) {
  Tensor base = make({1, 2, 3, 4, 5, 6}, {6});
  Tensor head = st::native::as_strided(base, {4}, {1}, 0);
  Tensor tail = st::native::as_strided(base, {4}, {1}, 2);
  Tensor same = st::native::as_strided(base, {4}, {1}, 0);
  Tensor apart = st::native::as_strided(base, {2}, {1}, 4);
  EXPECT_NATIVE_ERROR(st::native::assert_no_partial_overlap(head, tail, "copy_"),
                      "copy_: unsupported operation: some elements of the input tensor and the "
                      "written-to tensor refer to a single memory location");
  EXPECT_NO_THROW(st::native::assert_no_partial_overlap(head, same, "copy_"));
  EXPECT_NO_THROW(st::native::assert_no_partial_overlap(head, apart, "copy_"));
  // Separate storages and empty or undefined tensors never overlap.
  EXPECT_NO_THROW(st::native::assert_no_partial_overlap(head, make({1, 2, 3, 4}, {4}), "op"));
  EXPECT_NO_THROW(st::native::assert_no_partial_overlap(head, Tensor(), "op"));
  EXPECT_NO_THROW(
      st::native::assert_no_partial_overlap(head, st::native::as_strided(base, {0}, {1}, 1), "op"));
}

}  // namespace
