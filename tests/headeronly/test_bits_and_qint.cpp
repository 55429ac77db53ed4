// Storage-only dtypes: their size and alignment define the element size of
// the corresponding ScalarType, so they are pinned here, together with the
// explicit-construction rule that keeps raw integers from silently turning
// into quantized or packed values.
#include <torch/headeronly/util/Float4_e2m1fn_x2.h>
#include <torch/headeronly/util/bits.h>
#include <torch/headeronly/util/qint32.h>
#include <torch/headeronly/util/qint8.h>
#include <torch/headeronly/util/quint2x4.h>
#include <torch/headeronly/util/quint4x2.h>
#include <torch/headeronly/util/quint8.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace {

namespace th = torch::headeronly;

template <typename T, typename Underlying, size_t Align>
void check_storage_type(Underlying sample) {
  static_assert(sizeof(T) == sizeof(Underlying));
  static_assert(alignof(T) == Align);
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::is_standard_layout_v<T>);
  static_assert(std::is_trivially_default_constructible_v<T>);
  static_assert(std::is_same_v<decltype(T::val_), Underlying>);
  // Explicit only: a raw integer must not convert implicitly.
  static_assert(std::is_constructible_v<T, Underlying>);
  static_assert(!std::is_convertible_v<Underlying, T>);
  constexpr T zero(Underlying{0});
  static_assert(zero.val_ == 0);
  const T t(sample);
  EXPECT_EQ(t.val_, sample);
  // The object representation is exactly the value.
  Underlying raw;
  std::memcpy(&raw, &t, sizeof raw);
  EXPECT_EQ(raw, sample);
}

TEST(Bits, SizesAlignmentsAndValues) {
  check_storage_type<th::bits1x8, uint8_t, 1>(0xA5);
  check_storage_type<th::bits2x4, uint8_t, 1>(0x1B);
  check_storage_type<th::bits4x2, uint8_t, 1>(0xF0);
  check_storage_type<th::bits8, uint8_t, 1>(0xFF);
  check_storage_type<th::bits16, uint16_t, 2>(0xBEEF);
  static_assert(std::is_same_v<th::bits16::underlying, uint16_t>);
  static_assert(std::is_same_v<c10::bits8, th::bits8>);
  static_assert(std::is_same_v<c10::bits1x8, th::bits1x8>);
  static_assert(std::is_same_v<c10::bits2x4, th::bits2x4>);
  static_assert(std::is_same_v<c10::bits4x2, th::bits4x2>);
  static_assert(std::is_same_v<c10::bits16, th::bits16>);
}

TEST(QInt, SizesAlignmentsAndValues) {
  check_storage_type<th::qint8, int8_t, 1>(-128);
  check_storage_type<th::quint8, uint8_t, 1>(255);
  check_storage_type<th::qint32, int32_t, 4>(-2147483647 - 1);
  check_storage_type<th::quint4x2, uint8_t, 1>(0x3C);
  check_storage_type<th::quint2x4, uint8_t, 1>(0xE4);
  static_assert(std::is_same_v<th::qint8::underlying, int8_t>);
  static_assert(std::is_same_v<th::qint32::underlying, int32_t>);
  static_assert(std::is_same_v<c10::qint8, th::qint8>);
  static_assert(std::is_same_v<c10::quint8, th::quint8>);
  static_assert(std::is_same_v<c10::qint32, th::qint32>);
  static_assert(std::is_same_v<c10::quint4x2, th::quint4x2>);
  static_assert(std::is_same_v<c10::quint2x4, th::quint2x4>);
}

TEST(Float4, StorageOnly) {
  using T = th::Float4_e2m1fn_x2;
  check_storage_type<T, uint8_t, 1>(0x7A);
  static_assert(std::is_same_v<c10::Float4_e2m1fn_x2, T>);
  constexpr T t(0x12, T::from_bits());
  static_assert(t.val_ == 0x12);
  // No conversion to a number: the meaning of a byte depends on block
  // scales kept elsewhere.
  static_assert(!std::is_convertible_v<T, float>);
  static_assert(!std::is_convertible_v<float, T>);
  EXPECT_EQ(t.val_, 0x12);
}

// Arrays of these types pack with no padding, as tensors assume.
TEST(Storage, ArraysArePacked) {
  static_assert(sizeof(th::qint32[3]) == 12);
  static_assert(sizeof(th::quint8[7]) == 7);
  static_assert(sizeof(th::bits16[5]) == 10);
  th::qint32 arr[3] = {th::qint32(1), th::qint32(-2), th::qint32(3)};
  EXPECT_EQ(reinterpret_cast<const char*>(&arr[2]) - reinterpret_cast<const char*>(&arr[0]), 8);
  EXPECT_EQ(arr[1].val_, -2);
}

}  // namespace
