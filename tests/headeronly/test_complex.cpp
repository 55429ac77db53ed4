// torch::headeronly::complex<T>: layout, conversions, and arithmetic
// checked against std::complex (which the type must agree with to within
// rounding) and, for complex<Half>, against float arithmetic rounded once.
#include <torch/headeronly/util/complex.h>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

namespace {

using torch::headeronly::complex;
using torch::headeronly::Half;

template <typename T>
class ComplexTest : public ::testing::Test {};
using RealTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ComplexTest, RealTypes);

template <typename T>
std::complex<T> to_std(const complex<T>& z) {
  return std::complex<T>(z.real(), z.imag());
}

// Relative error of `got` against `want`, measured on the modulus so that a
// tiny component next to a large one is not over-weighted.
template <typename T>
double rel_err(const complex<T>& got, const std::complex<T>& want) {
  const double scale = std::abs(std::complex<double>(want));
  const double diff = std::abs(std::complex<double>(got.real(), got.imag()) -
                               std::complex<double>(want.real(), want.imag()));
  return scale == 0 ? diff : diff / scale;
}

TYPED_TEST(ComplexTest, Layout) {
  using T = TypeParam;
  static_assert(sizeof(complex<T>) == 2 * sizeof(T));
  static_assert(alignof(complex<T>) == 2 * sizeof(T));
  static_assert(std::is_trivially_copyable_v<complex<T>>);
  static_assert(std::is_same_v<typename complex<T>::value_type, T>);
  static_assert(std::is_same_v<c10::complex<T>, complex<T>>);
  constexpr complex<T> z(T(1), T(2));
  static_assert(z.real() == T(1) && z.imag() == T(2));
  constexpr complex<T> zero;
  static_assert(zero.real() == T(0) && zero.imag() == T(0));
  constexpr complex<T> re_only(T(3));
  static_assert(re_only.imag() == T(0));
  // Memory order is {real, imag}.
  const complex<T> w(T(5), T(7));
  const T* parts = reinterpret_cast<const T*>(&w);
  EXPECT_EQ(parts[0], T(5));
  EXPECT_EQ(parts[1], T(7));
}

TYPED_TEST(ComplexTest, ArithmeticMatchesStdComplex) {
  using T = TypeParam;
  std::mt19937 rng(1234);
  std::uniform_real_distribution<T> dist(T(-100), T(100));
  const double tol = 8 * std::numeric_limits<T>::epsilon();
  for (int i = 0; i < 20000; ++i) {
    const complex<T> a(dist(rng), dist(rng));
    const complex<T> b(dist(rng), dist(rng));
    const T s = dist(rng);
    const std::complex<T> sa = to_std(a), sb = to_std(b);
    ASSERT_LE(rel_err(a + b, sa + sb), tol);
    ASSERT_LE(rel_err(a - b, sa - sb), tol);
    ASSERT_LE(rel_err(a * b, sa * sb), tol);
    ASSERT_LE(rel_err(a / b, sa / sb), tol);
    ASSERT_LE(rel_err(a + s, sa + s), tol);
    ASSERT_LE(rel_err(s - a, s - sa), tol);
    ASSERT_LE(rel_err(a * s, sa * s), tol);
    ASSERT_LE(rel_err(s / a, s / sa), tol);
    ASSERT_LE(rel_err(a / s, sa / s), tol);
    ASSERT_LE(rel_err(-a, -sa), 0.0);
    ASSERT_NEAR(abs(a), std::abs(sa), tol * std::abs(sa));
    ASSERT_NEAR(arg(a), std::arg(sa), tol * 4);
    ASSERT_NEAR(norm(a), std::norm(sa), tol * std::norm(sa));
    ASSERT_EQ(to_std(conj(a)), std::conj(sa));
  }
}

TYPED_TEST(ComplexTest, DivisionAvoidsOverflow) {
  using T = TypeParam;
  // The textbook formula computes c*c + d*d, which overflows here.
  const T big = std::numeric_limits<T>::max() / T(4);
  const complex<T> q = complex<T>(big, big) / complex<T>(big, big);
  EXPECT_NEAR(q.real(), T(1), 4 * std::numeric_limits<T>::epsilon());
  EXPECT_NEAR(q.imag(), T(0), 4 * std::numeric_limits<T>::epsilon());
  const T tiny = std::numeric_limits<T>::min() * T(4);
  const complex<T> r = complex<T>(T(1), T(0)) / complex<T>(tiny, tiny);
  EXPECT_TRUE(std::isfinite(r.real()));
  EXPECT_NEAR(r.real() * tiny, T(0.5), 4 * std::numeric_limits<T>::epsilon());
  // Division by zero gives non-finite components rather than a trap.
  const complex<T> z = complex<T>(T(1), T(1)) / complex<T>(T(0), T(0));
  EXPECT_FALSE(std::isfinite(z.real()));
  EXPECT_FALSE(std::isfinite(z.imag()));
}

TYPED_TEST(ComplexTest, CompoundAssignmentAndSetters) {
  using T = TypeParam;
  complex<T> z(T(1), T(2));
  z += complex<T>(T(3), T(4));
  EXPECT_EQ(z, complex<T>(T(4), T(6)));
  z -= T(1);
  EXPECT_EQ(z, complex<T>(T(3), T(6)));
  z *= T(2);
  EXPECT_EQ(z, complex<T>(T(6), T(12)));
  z /= T(3);
  EXPECT_EQ(z, complex<T>(T(2), T(4)));
  z *= complex<T>(T(0), T(1));
  EXPECT_EQ(z, complex<T>(T(-4), T(2)));
  z /= complex<T>(T(0), T(2));
  EXPECT_EQ(z, complex<T>(T(1), T(2)));
  z = T(5);
  EXPECT_EQ(z, complex<T>(T(5), T(0)));
  z.real(T(-1));
  z.imag(T(9));
  EXPECT_EQ(real(z), T(-1));
  EXPECT_EQ(imag(z), T(9));
  EXPECT_TRUE(static_cast<bool>(z));
  EXPECT_FALSE(static_cast<bool>(complex<T>()));
}

TYPED_TEST(ComplexTest, Equality) {
  using T = TypeParam;
  const complex<T> a(T(1), T(2));
  EXPECT_TRUE(a == complex<T>(T(1), T(2)));
  EXPECT_FALSE(a != complex<T>(T(1), T(2)));
  EXPECT_TRUE(a != complex<T>(T(1), T(-2)));
  EXPECT_TRUE(a != complex<T>(T(2), T(2)));
  EXPECT_TRUE(complex<T>(T(3), T(0)) == T(3));
  EXPECT_TRUE(T(3) == complex<T>(T(3), T(0)));
  EXPECT_TRUE(complex<T>(T(3), T(1)) != T(3));
  EXPECT_TRUE(T(3) != complex<T>(T(3), T(1)));
  EXPECT_TRUE(complex<T>(T(0), T(-0.0)) == complex<T>(T(-0.0), T(0)));
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_FALSE(complex<T>(nan, T(0)) == complex<T>(nan, T(0)));
}

TYPED_TEST(ComplexTest, StdComplexConversionsAndStreams) {
  using T = TypeParam;
  const std::complex<T> s(T(1.5), T(-2.5));
  const complex<T> z(s);
  EXPECT_EQ(z.real(), T(1.5));
  EXPECT_EQ(z.imag(), T(-2.5));
  EXPECT_EQ(static_cast<std::complex<T>>(z), s);
  EXPECT_EQ(static_cast<std::complex<double>>(z), std::complex<double>(1.5, -2.5));
  std::ostringstream os, os_std;
  os << z;
  os_std << s;
  EXPECT_EQ(os.str(), os_std.str());
  EXPECT_EQ(os.str(), "(1.5,-2.5)");
  std::istringstream is("(3.25,-0.5) 7");
  complex<T> r, r2;
  is >> r >> r2;
  EXPECT_EQ(r, complex<T>(T(3.25), T(-0.5)));
  EXPECT_EQ(r2, complex<T>(T(7), T(0)));
}

TEST(Complex, ConversionsBetweenPrecisions) {
  // Widening is implicit, narrowing explicit.
  static_assert(std::is_convertible_v<complex<float>, complex<double>>);
  static_assert(!std::is_convertible_v<complex<double>, complex<float>>);
  static_assert(std::is_constructible_v<complex<float>, complex<double>>);
  static_assert(std::is_convertible_v<complex<Half>, complex<float>>);
  static_assert(std::is_convertible_v<complex<Half>, complex<double>>);
  static_assert(!std::is_convertible_v<complex<float>, complex<Half>>);
  static_assert(std::is_constructible_v<complex<Half>, complex<float>>);
  static_assert(std::is_constructible_v<complex<Half>, complex<double>>);

  const complex<float> f(1.1f, -2.2f);
  const complex<double> d = f;
  EXPECT_EQ(d.real(), static_cast<double>(1.1f));
  EXPECT_EQ(d.imag(), static_cast<double>(-2.2f));
  const complex<float> back(d);
  EXPECT_EQ(back, f);
  const complex<float> rounded(complex<double>(1.0 + 1e-12, 0.1));
  EXPECT_EQ(rounded.real(), 1.0f);
  EXPECT_EQ(rounded.imag(), 0.1f);

  const complex<Half> h(f);
  EXPECT_EQ(h.real().x, Half(1.1f).x);
  EXPECT_EQ(h.imag().x, Half(-2.2f).x);
  const complex<float> hf = h;
  EXPECT_EQ(hf.real(), static_cast<float>(Half(1.1f)));
  const complex<double> hd = h;
  EXPECT_EQ(hd.imag(), static_cast<double>(static_cast<float>(Half(-2.2f))));
  const complex<Half> hd_back(complex<double>(0.5, 65536.0));
  EXPECT_EQ(static_cast<float>(hd_back.real()), 0.5f);
  EXPECT_EQ(hd_back.imag().x, 0x7C00);  // overflow to Inf, as Half does
}

TEST(Complex, HalfLayoutAndArithmetic) {
  static_assert(sizeof(complex<Half>) == 4 && alignof(complex<Half>) == 4);
  static_assert(std::is_trivially_copyable_v<complex<Half>>);
  static_assert(std::is_same_v<c10::complex<c10::Half>, complex<Half>>);

  // Reference: compute in complex<float> (checked above against
  // std::complex) and round each component to Half once.
  auto rounded = [](const complex<float>& z) {
    return std::make_pair(Half(z.real()).x, Half(z.imag()).x);
  };
  auto bits = [](const complex<Half>& z) { return std::make_pair(z.real().x, z.imag().x); };
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> dist(-50.0f, 50.0f);
  for (int i = 0; i < 5000; ++i) {
    const complex<Half> a(Half(dist(rng)), Half(dist(rng)));
    const complex<Half> b(Half(dist(rng)), Half(dist(rng)));
    const Half s(dist(rng));
    const complex<float> fa = a, fb = b;
    const float fs = s;
    ASSERT_EQ(bits(a + b), rounded(fa + fb));
    ASSERT_EQ(bits(a - b), rounded(fa - fb));
    ASSERT_EQ(bits(a * b), rounded(fa * fb));
    ASSERT_EQ(bits(a / b), rounded(fa / fb));
    ASSERT_EQ(bits(a * s), rounded(fa * fs));
    ASSERT_EQ(bits(a / s), rounded(fa / fs));
    ASSERT_EQ(bits(a + s), rounded(fa + fs));
    ASSERT_EQ(bits(s - a), rounded(fs - fa));
    ASSERT_EQ(bits(-a), rounded(-fa));
  }
  // Rounding once matters: 65*65 = 4225 is not a Half (4224 is), so
  // rounding the partial products would give 4224 - 64*66 = 0 for the real
  // part; computing in float gives the exact 1.
  const complex<Half> p(Half(65.0f), Half(64.0f));
  const complex<Half> q(Half(65.0f), Half(66.0f));
  const complex<Half> pq = p * q;
  EXPECT_EQ(static_cast<float>(pq.real()), 1.0f);
  EXPECT_EQ(static_cast<float>(pq.imag()), 8448.0f);  // 8450 rounded once

  complex<Half> c(Half(1.0f), Half(2.0f));
  c += complex<Half>(Half(0.5f), Half(0.5f));
  c *= Half(2.0f);
  EXPECT_EQ(c, complex<Half>(Half(3.0f), Half(5.0f)));
  c -= Half(1.0f);
  c /= complex<Half>(Half(2.0f), Half(0.0f));
  EXPECT_EQ(c, complex<Half>(Half(1.0f), Half(2.5f)));
  EXPECT_TRUE(c == complex<Half>(Half(1.0f), Half(2.5f)));
  EXPECT_TRUE(c != complex<Half>(Half(1.0f), Half(2.0f)));
  EXPECT_EQ(static_cast<float>(abs(complex<Half>(Half(3.0f), Half(4.0f)))), 5.0f);
  EXPECT_EQ(conj(c), complex<Half>(Half(1.0f), Half(-2.5f)));
  std::ostringstream os;
  os << c;
  EXPECT_EQ(os.str(), "(1,2.5)");
}

}  // namespace
