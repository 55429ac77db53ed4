#include <torch/headeronly/util/TypeCast.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

namespace tho = torch::headeronly;

TEST(TypeCast, PlainConversions) {
  EXPECT_EQ(c10::convert<int32_t>(3.9), 3);
  EXPECT_EQ(c10::convert<int32_t>(-3.9f), -3);
  EXPECT_EQ(c10::convert<double>(int64_t{7}), 7.0);
  EXPECT_EQ(c10::convert<float>(tho::Half(1.5f)), 1.5f);
  EXPECT_EQ(c10::convert<int16_t>(tho::BFloat16(-2.0f)), -2);
  EXPECT_EQ(static_cast<float>(c10::convert<tho::Half>(0.25)), 0.25f);
}

TEST(TypeCast, FloatingToUint8Wraps) {
  EXPECT_EQ(c10::convert<uint8_t>(-1.0), 255);
  EXPECT_EQ(c10::convert<uint8_t>(-2.0f), 254);
  EXPECT_EQ(c10::convert<uint8_t>(int64_t{-1}), 255);
  EXPECT_EQ(c10::convert<uint8_t>(tho::Half(3.0f)), 3);
}

TEST(TypeCast, ComplexToRealKeepsTheRealPart) {
  EXPECT_EQ(c10::convert<double>(tho::complex<double>(2.5, 7.0)), 2.5);
  EXPECT_EQ(c10::convert<int32_t>(tho::complex<float>(-4.5f, 1.0f)), -4);
  EXPECT_EQ(static_cast<float>(c10::convert<tho::Half>(tho::complex<float>(1.0f, 9.0f))), 1.0f);
}

TEST(TypeCast, ComplexToBoolTestsBothParts) {
  EXPECT_TRUE(c10::convert<bool>(tho::complex<float>(0.0f, 1.0f)));
  EXPECT_FALSE(c10::convert<bool>(tho::complex<double>(0.0, 0.0)));
  EXPECT_TRUE(c10::convert<bool>(0.5));
}

TEST(TypeCast, ReducedComplex) {
  const auto ch = c10::convert<tho::complex<tho::Half>>(tho::BFloat16(2.0f));
  EXPECT_EQ(static_cast<float>(ch.real()), 2.0f);
  EXPECT_EQ(static_cast<float>(ch.imag()), 0.0f);
  const auto bc = c10::convert<tho::complex<tho::BFloat16>>(tho::complex<double>(1.5, -0.5));
  EXPECT_EQ(static_cast<float>(bc.real()), 1.5f);
  EXPECT_EQ(static_cast<float>(bc.imag()), -0.5f);
  const auto back = c10::convert<tho::complex<float>>(bc);
  EXPECT_EQ(back, tho::complex<float>(1.5f, -0.5f));
  EXPECT_EQ(static_cast<float>(c10::convert<tho::BFloat16>(bc)), 1.5f);
}

TEST(TypeCast, CheckedConvert) {
  EXPECT_EQ(c10::checked_convert<int8_t>(100, "int8_t"), 100);
  EXPECT_TRUE(c10::checked_convert<bool>(1e300, "bool"));
  try {
    c10::checked_convert<int8_t>(300, "int8_t");
    FAIL() << "expected an overflow error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("converted to type int8_t"), std::string::npos);
  }
  EXPECT_THROW(c10::unsafe_wrapping_convert<float>(1e300, "float"), std::runtime_error);
  EXPECT_THROW(c10::checked_convert<double>(tho::complex<double>(0, 1), "double"),
               std::runtime_error);
}

}  // namespace
