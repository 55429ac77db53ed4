#include <torch/headeronly/util/complex.h>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

namespace {

namespace tho = torch::headeronly;

TEST(ComplexUtils, Traits) {
  static_assert(c10::is_complex<tho::complex<float>>::value);
  static_assert(c10::is_complex<std::complex<double>>::value);
  static_assert(!c10::is_complex<double>::value);
  static_assert(std::is_same_v<c10::scalar_value_type<tho::complex<tho::Half>>::type, tho::Half>);
  static_assert(std::is_same_v<c10::scalar_value_type<std::complex<float>>::type, float>);
  static_assert(std::is_same_v<c10::scalar_value_type<int>::type, int>);
  EXPECT_EQ(std::numeric_limits<tho::complex<float>>::max(), FLT_MAX);
}

TEST(ComplexUtils, IsNan) {
  EXPECT_TRUE(std::isnan(tho::complex<double>(0.0, std::nan(""))));
  EXPECT_FALSE(std::isnan(tho::complex<float>(1.0f, 2.0f)));
}

TEST(ComplexUtils, Literals) {
  using namespace c10::complex_literals;
  EXPECT_EQ(2.5_if, tho::complex<float>(0.0f, 2.5f));
  EXPECT_EQ(3_id, tho::complex<double>(0.0, 3.0));
  static_assert(std::is_same_v<decltype(1_if), tho::complex<float>>);
}

TEST(ComplexUtils, BComplex32) {
  using C = tho::complex<tho::BFloat16>;
  static_assert(sizeof(C) == 4 && alignof(C) == 4);
  C a(tho::BFloat16(1.0f), tho::BFloat16(2.0f));
  const C b(tho::BFloat16(3.0f), tho::BFloat16(-1.0f));
  a *= b;  // (1 + 2i)(3 - i) = 5 + 5i
  EXPECT_EQ(static_cast<float>(a.real()), 5.0f);
  EXPECT_EQ(static_cast<float>(a.imag()), 5.0f);
  const tho::complex<float> widened = C(tho::BFloat16(0.5f), tho::BFloat16(0.25f));
  EXPECT_EQ(widened, tho::complex<float>(0.5f, 0.25f));
  EXPECT_EQ(static_cast<float>(tho::abs(C(tho::BFloat16(3.0f), tho::BFloat16(4.0f)))), 5.0f);
  EXPECT_EQ(static_cast<float>(tho::conj(b).imag()), 1.0f);
}

}  // namespace
