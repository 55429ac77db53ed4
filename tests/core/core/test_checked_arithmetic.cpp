#include <gtest/gtest.h>

#include <cstdint>

#include <st/core/checked_arithmetic.h>

#include "error_of.h"

namespace {

constexpr int64_t k2to31 = int64_t{1} << 31;
constexpr int64_t k2to53 = int64_t{1} << 53;
constexpr int64_t k2to61 = int64_t{1} << 61;
constexpr int64_t k2to62 = int64_t{1} << 62;

TEST(CheckedArithmetic, ExactResultsUpToTheLimits) {
  EXPECT_EQ(st::checked_mul(k2to31, k2to31, "t", "x"), k2to62);
  EXPECT_EQ(st::checked_mul(INT64_MAX, 1, "t", "x"), INT64_MAX);
  EXPECT_EQ(st::checked_mul(-k2to62, 2, "t", "x"), INT64_MIN);
  EXPECT_EQ(st::checked_add(INT64_MAX - 1, 1, "t", "x"), INT64_MAX);
  EXPECT_EQ(st::checked_sub(-1, INT64_MAX, "t", "x"), INT64_MIN);
  EXPECT_EQ(st::checked_sub(INT64_MAX, 0, "t", "x"), INT64_MAX);
}

TEST(CheckedArithmetic, OverflowNamesTheOperationAndOperands) {
  EXPECT_ST_ERROR_HAS(st::checked_mul(k2to61, 8, "resize", "bytes"),
                      "resize: bytes overflows int64: 2305843009213693952 * 8");
  EXPECT_ST_ERROR_HAS(st::checked_mul(k2to31, int64_t{1} << 32, "op", "numel"),
                      "op: numel overflows int64: 2147483648 * 4294967296");
  EXPECT_ST_ERROR_HAS(st::checked_add(INT64_MAX, 1, "op", "offset"),
                      "op: offset overflows int64: 9223372036854775807 + 1");
  EXPECT_ST_ERROR_HAS(st::checked_sub(INT64_MAX, INT64_MIN, "parallel_for", "length"),
                      "parallel_for: length overflows int64: 9223372036854775807 - "
                      "-9223372036854775808");
}

TEST(CheckedArithmetic, Numel) {
  EXPECT_EQ(st::checked_numel({}, "t"), 1);
  EXPECT_EQ(st::checked_numel({k2to31, k2to31}, "t"), k2to62);
  EXPECT_EQ(st::checked_numel({INT64_MAX}, "t"), INT64_MAX);
  // A product that wraps to a small, even positive, number.
  EXPECT_ST_ERROR_HAS(st::checked_numel({k2to62, 4, 3}, "empty"),
                      "empty: number of elements of sizes [4611686018427387904, 4, 3] "
                      "overflows int64");
  EXPECT_ST_ERROR_HAS(st::checked_numel({k2to31, k2to31, 2}, "view"), "overflows int64");
  // A 0 anywhere makes the true product 0, whatever came before it.
  EXPECT_EQ(st::checked_numel({k2to62, 4, 0}, "t"), 0);
  // A negative size is the more specific error, even after an overflow.
  EXPECT_ST_ERROR_HAS(st::checked_numel({k2to62, 4, -1}, "empty"),
                      "empty: Trying to create tensor with negative dimension -1");
}

TEST(CheckedArithmetic, Nbytes) {
  EXPECT_EQ(st::checked_nbytes(0, 8, "t"), 0u);
  EXPECT_EQ(st::checked_nbytes(k2to53, 8, "t"), static_cast<size_t>(k2to53) * 8);
  EXPECT_EQ(st::checked_nbytes(INT64_MAX, 1, "t"), static_cast<size_t>(INT64_MAX));
  // 2^61 * 8 = 2^64 wraps to 0 in size_t; 2^60 * 8 = 2^63 does not fit int64.
  EXPECT_ST_ERROR_HAS(st::checked_nbytes(k2to61, 8, "resize"),
                      "resize: byte size of 2305843009213693952 elements of 8 bytes overflows "
                      "int64");
  EXPECT_ST_ERROR_HAS(st::checked_nbytes(int64_t{1} << 60, 8, "resize"), "overflows int64");
  EXPECT_ST_ERROR_HAS(st::checked_nbytes(INT64_MAX, 2, "resize"), "overflows int64");
  EXPECT_ST_ERROR_HAS(st::checked_nbytes(-1, 2, "resize"),
                      "resize: expected a non-negative element count, got -1");
}

TEST(CheckedArithmetic, StorageNbytes) {
  // Last element at offset + (2 - 1) * 3 + (4 - 1) * 1 = offset + 6.
  EXPECT_EQ(st::checked_storage_nbytes({2, 4}, {3, 1}, 4, 0, "t"), 7u * 4);
  EXPECT_EQ(st::checked_storage_nbytes({2, 4}, {3, 1}, 4, 5, "t"), 12u * 4);
  EXPECT_EQ(st::checked_storage_nbytes({}, {}, 8, 0, "t"), 8u);
  EXPECT_EQ(st::checked_storage_nbytes({0, k2to62}, {k2to62, 4}, 8, 0, "t"), 0u);
  // The extent itself fits, its bytes do not.
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({k2to61}, {1}, 8, 0, "empty_strided"),
                      "empty_strided: byte size of 2305843009213693952 elements");
  // (size - 1) * stride wraps.
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({3}, {k2to62}, 1, 0, "empty_strided"),
                      "empty_strided: storage size calculation overflowed with sizes=[3], "
                      "strides=[4611686018427387904] and storage offset 0");
  // Each step fits; their sum wraps.
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({2, 2}, {INT64_MAX, INT64_MAX}, 1, 0, "t"),
                      "storage size calculation overflowed");
  // The offset pushes the last index past int64.
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({2}, {1}, 1, INT64_MAX - 1, "as_strided"),
                      "as_strided: storage size calculation overflowed");
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({2}, {1, 1}, 1, 0, "t"), "differ in length");
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({2}, {-1}, 1, 0, "t"),
                      "t: negative strides are not supported");
  EXPECT_ST_ERROR_HAS(st::checked_storage_nbytes({2}, {1}, 1, -1, "t"),
                      "t: invalid storage offset -1");
}

}  // namespace
