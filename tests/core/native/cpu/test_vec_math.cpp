// The vector float functions (vec_math.h) against the C library computed
// in double, over a sweep of all float magnitudes and the special values;
// every variant the CPU supports (compiled into this test with the
// library's flags, native_tests.cmake) agrees bit for bit with the
// baseline one, and an element's result does not depend on its position
// (the padded last vector).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "native/cpu/vec_math.h"
#include "native/float_binary_reference.h"

namespace {

using st_native_test::floor_divide_ref;
using st_native_test::maximum_ref;
using st_native_test::minimum_ref;
using st_native_test::remainder_ref;
using st_native_test::trunc_divide_ref;

using st::native::cpu::BinaryMath;
using st::native::cpu::UnaryMath;
using st::native::cpu::VecMath;

std::vector<const VecMath*> variants() {
  std::vector<const VecMath*> v;
  for (const char* isa : {"default", "avx2", "avx512", "avx512_256"}) {
    if (const VecMath* m = st::native::cpu::vec_math_for(isa)) v.push_back(m);
  }
  return v;
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

double reference(UnaryMath op, double x) {
  switch (op) {
    case UnaryMath::Exp:
      return std::exp(x);
    case UnaryMath::Log:
      return std::log(x);
    case UnaryMath::Sqrt:
      return std::sqrt(x);
    case UnaryMath::Rsqrt:
      return 1.0 / static_cast<double>(std::sqrt(static_cast<float>(x)));
    case UnaryMath::Sin:
      return std::sin(x);
    case UnaryMath::Cos:
      return std::cos(x);
    case UnaryMath::Tan:
      return std::tan(x);
    case UnaryMath::Tanh:
      return std::tanh(x);
    case UnaryMath::Sigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case UnaryMath::GeluErf:
      return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    case UnaryMath::GeluTanh: {
      const double u = std::sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
      return x / (1.0 + std::exp(-2.0 * u));
    }
  }
  return 0;
}

// The largest error allowed, in units in the last place of the float
// result. Rsqrt rounds 1/sqrt(x) twice as PyTorch does (the reference
// rounds the sqrt too).
double max_ulps(UnaryMath op) {
  switch (op) {
    case UnaryMath::Exp:
    case UnaryMath::Log:
      return 1.0;
    case UnaryMath::Sqrt:
    case UnaryMath::Rsqrt:
      return 0.5;
    case UnaryMath::Sin:
    case UnaryMath::Cos:
      return 2.0;
    case UnaryMath::Tanh:
      return 1.5;  // every float checked once: 1.36 at most
    case UnaryMath::Sigmoid:
      return 3.0;
    case UnaryMath::GeluErf:
      return 3.0;  // every float checked once: 2.57 at most (2^-24 absolute below 2^-24)
    case UnaryMath::GeluTanh:
      return 4.0;
    case UnaryMath::Tan:
      return 4.0;  // every float with |x| <= 2^20 checked once: 3.74 at most
  }
  return 0;
}

const char* name(UnaryMath op) {
  static const char* names[] = {"exp",  "log",     "sqrt", "rsqrt",     "sin", "cos",
                                "tanh", "sigmoid", "gelu", "gelu_tanh", "tan"};
  return names[static_cast<int>(op)];
}

// Every 4099th bit pattern (all signs, exponents and many mantissas) and
// the edges.
std::vector<float> inputs() {
  std::vector<float> v;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099) {
    const uint32_t u = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &u, sizeof(f));
    v.push_back(f);
  }
  for (float f :
       {0.0f, -0.0f, kInf, -kInf, kNan, 1e-45f, -1e-45f, 1.17549435e-38f, 88.7228394f, 88.7228317f,
        -87.3365479f, -103.972076f, -103.9721f, 3.4028235e38f, -3.4028235e38f, 1.0f, -1.0f, 0.625f,
        -0.625f, 0x1p20f, -0x1p20f, 1048577.f, 1.5707964f, 3.1415927f, 20.0f, -20.0f, 14.0f, -14.0f,
        // gelu's table: the end of its last row, and rows 0 and 1 meeting.
        5.6124859f, -5.6124859f, 5.6124864f, -5.6124864f, 0.70710677f, -0.70710677f}) {
    v.push_back(f);
  }
  return v;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

TEST(NativeVecMath, WithinBoundsOfTheCLibraryInDouble) {
  const std::vector<float> in = inputs();
  std::vector<float> out(in.size());
  const VecMath& m = *variants()[0];
  for (int o = 0; o < st::native::cpu::kUnaryMathCount; ++o) {
    const UnaryMath op = static_cast<UnaryMath>(o);
    SCOPED_TRACE(name(op));
    m.unary_f32[o](out.data(), in.data(), static_cast<int64_t>(in.size()));
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const double want = reference(op, in[i]);
      const float got = out[i];
      const float wantf = static_cast<float>(want);
      bool ok;
      if (std::isnan(want) || std::isnan(got)) {
        ok = std::isnan(want) && std::isnan(got);
      } else if (std::isinf(wantf) || std::isinf(got)) {
        ok = wantf == got;
      } else {
        int e;
        std::frexp(wantf == 0 ? want : static_cast<double>(wantf), &e);
        const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
        ok = std::abs(static_cast<double>(got) - want) <= max_ulps(op) * ulp;
        if (want == 0 && got == 0) ok = std::signbit(want) == std::signbit(got);
        // x / (1 + exp(y)) where exp(y) overflows: 0 (PyTorch's formulas
        // give 0 there too).
        if ((op == UnaryMath::Sigmoid && std::abs(want) < 1e-38) ||
            (op == UnaryMath::GeluTanh && std::abs(want) < 1e-37)) {
          ok = ok || got == 0;
        }
        // gelu's results below 2^-24 in magnitude (x < -5.6) are held to
        // an absolute bound of 2^-24: -0.0 past its table, as PyTorch's.
        if (op == UnaryMath::GeluErf && std::abs(want) < 0x1p-24) {
          ok = std::abs(static_cast<double>(got) - want) <= 0x1p-24;
        }
      }
      if (!ok) {
        ++failures;
        ADD_FAILURE() << name(op) << "(" << in[i] << " = " << std::hexfloat << in[i]
                      << ") = " << got << ", want " << want << std::defaultfloat;
      }
    }
  }
}

TEST(NativeVecMath, SpecialValues) {
  const VecMath& m = *variants()[0];
  auto f = [&](UnaryMath op, float x) {
    float y;
    m.unary_f32[static_cast<int>(op)](&y, &x, 1);
    return y;
  };
  for (int o = 0; o < st::native::cpu::kUnaryMathCount; ++o) {
    EXPECT_TRUE(std::isnan(f(static_cast<UnaryMath>(o), kNan))) << name(static_cast<UnaryMath>(o));
  }
  EXPECT_EQ(f(UnaryMath::Exp, kInf), kInf);
  EXPECT_EQ(f(UnaryMath::Exp, -kInf), 0.0f);
  EXPECT_EQ(f(UnaryMath::Exp, 89.0f), kInf);
  EXPECT_EQ(f(UnaryMath::Exp, -103.0f), std::exp(-103.0f));  // a denormal
  EXPECT_EQ(f(UnaryMath::Log, 0.0f), -kInf);
  EXPECT_EQ(f(UnaryMath::Log, -0.0f), -kInf);
  EXPECT_TRUE(std::isnan(f(UnaryMath::Log, -1.0f)));
  EXPECT_EQ(f(UnaryMath::Log, kInf), kInf);
  EXPECT_EQ(f(UnaryMath::Log, 1e-45f), std::log(1e-45f));
  EXPECT_TRUE(std::isnan(f(UnaryMath::Sqrt, -1.0f)));
  EXPECT_EQ(f(UnaryMath::Rsqrt, 0.0f), kInf);
  EXPECT_EQ(f(UnaryMath::Rsqrt, -0.0f), -kInf);
  EXPECT_TRUE(std::isnan(f(UnaryMath::Sin, kInf)));
  EXPECT_TRUE(std::isnan(f(UnaryMath::Cos, -kInf)));
  EXPECT_TRUE(std::signbit(f(UnaryMath::Sin, -0.0f)));
  EXPECT_EQ(f(UnaryMath::Cos, -0.0f), 1.0f);
  EXPECT_EQ(f(UnaryMath::Sin, 1e30f), std::sin(1e30f));  // beyond the vector reduction
  EXPECT_TRUE(std::signbit(f(UnaryMath::Tanh, -0.0f)));
  EXPECT_EQ(f(UnaryMath::Tanh, kInf), 1.0f);
  EXPECT_EQ(f(UnaryMath::Tanh, -kInf), -1.0f);
  EXPECT_EQ(f(UnaryMath::Sigmoid, kInf), 1.0f);
  EXPECT_EQ(f(UnaryMath::Sigmoid, -kInf), 0.0f);
  // Infinities as PyTorch's x * Phi(x) gives them: -inf * 0 is NaN.
  EXPECT_EQ(f(UnaryMath::GeluErf, kInf), kInf);
  EXPECT_TRUE(std::isnan(f(UnaryMath::GeluErf, -kInf)));
  EXPECT_EQ(f(UnaryMath::GeluErf, -30.0f), 0.0f);
  EXPECT_TRUE(std::signbit(f(UnaryMath::GeluErf, -30.0f)));  // -0.0, as PyTorch's
  EXPECT_EQ(f(UnaryMath::GeluErf, 30.0f), 30.0f);
  EXPECT_EQ(f(UnaryMath::GeluTanh, kInf), kInf);
  EXPECT_TRUE(std::isnan(f(UnaryMath::GeluTanh, -kInf)));
  EXPECT_TRUE(std::signbit(f(UnaryMath::Tan, -0.0f)));
  EXPECT_FALSE(std::signbit(f(UnaryMath::Tan, 0.0f)));
  EXPECT_TRUE(std::isnan(f(UnaryMath::Tan, kInf)));
  EXPECT_TRUE(std::isnan(f(UnaryMath::Tan, -kInf)));
  EXPECT_EQ(f(UnaryMath::Tan, 1e30f), std::tan(1e30f));  // beyond the vector reduction
  // The float nearest pi/2 sits in an odd quadrant (-cot of a tiny r):
  // about -2.29e7, within 4 ulp (an ulp is 2 there).
  EXPECT_NEAR(f(UnaryMath::Tan, 1.5707964f), std::tan(static_cast<double>(1.5707964f)), 8.0);
}

TEST(NativeVecMath, VariantsAndPositionsAgreeBitForBit) {
  // A spread of the sweep, of a length with a partial last vector.
  const std::vector<float> all = inputs();
  std::vector<float> in;
  for (size_t i = 0; i < 4099 + 3; ++i) in.push_back(all[(i * 263) % all.size()]);
  for (int o = 0; o < st::native::cpu::kUnaryMathCount; ++o) {
    SCOPED_TRACE(name(static_cast<UnaryMath>(o)));
    std::vector<float> base(in.size());
    variants()[0]->unary_f32[o](base.data(), in.data(), static_cast<int64_t>(in.size()));
    for (const VecMath* m : variants()) {
      SCOPED_TRACE(m->isa);
      std::vector<float> got(in.size());
      m->unary_f32[o](got.data(), in.data(), static_cast<int64_t>(in.size()));
      for (size_t i = 0; i < in.size(); ++i) {
        ASSERT_TRUE(same_bits(got[i], base[i])) << i;
      }
      // Every tail length, unaligned, and in place.
      for (int64_t n = 1; n <= 40; ++n) {
        std::vector<float> part(in.begin() + 1, in.begin() + 1 + n);
        m->unary_f32[o](part.data(), part.data(), n);
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_TRUE(same_bits(part[static_cast<size_t>(i)], base[static_cast<size_t>(i) + 1]))
              << n << " " << i;
        }
      }
    }
  }
}

float binary_ref(BinaryMath op, float a, float b) {
  switch (op) {
    case BinaryMath::Remainder:
      return remainder_ref(a, b);
    case BinaryMath::FloorDivide:
      return floor_divide_ref(a, b);
    case BinaryMath::TruncDivide:
      return trunc_divide_ref(a, b);
    case BinaryMath::Divide:
      return a / b;
    case BinaryMath::Multiply:
      return a * b;
    case BinaryMath::Maximum:
      return maximum_ref(a, b);
    case BinaryMath::Minimum:
      return minimum_ref(a, b);
    case BinaryMath::Eq:
      return a == b ? 1.0f : 0.0f;
    case BinaryMath::Ne:
      return a != b ? 1.0f : 0.0f;
    case BinaryMath::Lt:
      return a < b ? 1.0f : 0.0f;
    case BinaryMath::Le:
      return a <= b ? 1.0f : 0.0f;
    case BinaryMath::Gt:
      return a > b ? 1.0f : 0.0f;
    case BinaryMath::Ge:
      return a >= b ? 1.0f : 0.0f;
    case BinaryMath::Pow:
      return std::pow(a, b);  // not exact: see the Pow test below
  }
  return 0;
}

TEST(NativeVecMath, BinaryFunctionsMatchTheScalarDefinitionsExactly) {
  std::mt19937 g(7);
  std::uniform_real_distribution<float> d(-100, 100);
  std::vector<float> a, b;
  const float special[] = {0.0f,  -0.0f, kInf,   -kInf, kNan, 1.0f,  -1.0f,  3.0f,
                           -3.0f, 0.5f,  1e-45f, 3e38f, 7.0f, 1e10f, -1e-30f};
  for (float x : special) {
    for (float y : special) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (int i = 0; i < 30000; ++i) {
    uint32_t u[2] = {static_cast<uint32_t>(g()), static_cast<uint32_t>(g())};
    float r[2];
    std::memcpy(r, u, sizeof(r));
    const float y = d(g);
    a.insert(a.end(), {r[0], d(g), std::round(d(g)) * y});  // any bits, moderate, near multiples
    b.insert(b.end(), {r[1], d(g), y});
  }
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    std::vector<float> out(a.size());
    for (int op = 0; op < st::native::cpu::kBinaryMathCount; ++op) {
      if (op == static_cast<int>(BinaryMath::Pow)) continue;  // no exact scalar formula
      m->binary_f32[op](out.data(), a.data(), b.data(), static_cast<int64_t>(a.size()));
      for (size_t i = 0; i < a.size(); ++i) {
        const float want = binary_ref(static_cast<BinaryMath>(op), a[i], b[i]);
        ASSERT_TRUE(same_bits(out[i], want) || (std::isnan(want) && std::isnan(out[i])))
            << op << ": " << std::hexfloat << a[i] << ", " << b[i] << " gave " << out[i]
            << ", want " << want;
      }
      // Every tail length (the padded last vector), unaligned, in place.
      for (int64_t n = 1; n <= 40; ++n) {
        std::vector<float> part(a.begin() + 1, a.begin() + 1 + n);
        m->binary_f32[op](part.data(), part.data(), b.data() + 1, n);
        for (int64_t i = 0; i < n; ++i) {
          const size_t j = static_cast<size_t>(i) + 1;
          const float want = binary_ref(static_cast<BinaryMath>(op), a[j], b[j]);
          ASSERT_TRUE(same_bits(part[static_cast<size_t>(i)], want) ||
                      (std::isnan(want) && std::isnan(part[static_cast<size_t>(i)])))
              << op << " tail " << n << " " << i;
        }
      }
    }
  }
}

// With one operand a single value (binary_scalar_f32), each function
// gives the bits of binary_f32 over that value repeated: on either side,
// for values that reach the rules' cases (NaNs of two payloads, signed
// zeros, infinities), every tail length, unaligned and in place. Which
// NaN's payload an arithmetic result carries is the compiler's operand
// order (as against the scalar kernel, above); maximum and minimum pick an
// operand, so theirs is exact too.
TEST(NativeVecMath, ScalarOperandFunctionsGiveTheBitsOfTheRepeatedValue) {
  std::mt19937 g(11);
  std::uniform_real_distribution<float> d(-100, 100);
  std::vector<float> arr;
  for (int i = 0; i < 300; ++i) arr.push_back(i % 7 == 0 ? kNan : d(g));
  arr.insert(arr.end(), {0.0f, -0.0f, kInf, -kInf, 1.0f, 3.0f, -3.0f, 0.5f});
  uint32_t payload = 0xffc00005u;
  float other_nan;
  std::memcpy(&other_nan, &payload, sizeof(other_nan));
  const float values[] = {other_nan, 0.0f, -0.0f, kInf, -kInf, 2.5f, -3.0f, 1e-45f, 7.0f};
  const int64_t n = static_cast<int64_t>(arr.size());
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    for (int op = 0; op < st::native::cpu::kBinaryMathCount; ++op) {
      SCOPED_TRACE(op);
      for (const float v : values) {
        const std::vector<float> rep(arr.size(), v);
        for (const bool a_scalar : {true, false}) {
          const float* a = a_scalar ? rep.data() : arr.data();
          const float* b = a_scalar ? arr.data() : rep.data();
          std::vector<float> want(arr.size()), got(arr.size());
          m->binary_f32[op](want.data(), a, b, n);
          for (int64_t len = 0; len <= n; len += len < 40 ? 1 : 97) {
            // From element 1 (unaligned), into a copy of the array operand
            // (in place).
            std::vector<float> out(arr.begin() + 1, arr.begin() + 1 + len);
            m->binary_scalar_f32[op](out.data(), a_scalar ? &v : out.data(),
                                     a_scalar ? out.data() : &v, len, a_scalar);
            const bool picks = op == static_cast<int>(BinaryMath::Maximum) ||
                               op == static_cast<int>(BinaryMath::Minimum);
            for (int64_t i = 0; i < len; ++i) {
              const float x = out[static_cast<size_t>(i)];
              const float w = want[static_cast<size_t>(i) + 1];
              ASSERT_TRUE(same_bits(x, w) || (!picks && std::isnan(x) && std::isnan(w)))
                  << "a_scalar " << a_scalar << " value " << v << " length " << len << " at " << i;
            }
          }
        }
      }
    }
  }
}

// pow: the double result's rounding to float is the correctly rounded one
// but within 2^-38 relative of a midpoint (vec_math_impl.inc, pow_abs_half),
// checked against pow in double over operands that reach every part: any
// bits, results near overflow and in the denormal range, bases near 1 with
// large exponents, negative bases with integer exponents (exact powers
// such as 3^2 stay exact); zero, infinite and NaN operands exactly as the C
// library's powf (any NaN for NaN); whole vectors of positive bases (the
// path without the special cases); variants bit-identical, every tail
// length and in place.
TEST(NativeVecMath, PowIsCorrectlyRoundedButNearMidpointsAndKeepsTheSpecialCases) {
  std::mt19937 g(23);
  std::uniform_real_distribution<float> unit(-1, 1);
  std::vector<float> a, b;
  const float special[] = {0.0f,       -0.0f,       kInf,       -kInf,  kNan,    -kNan,   1.0f,
                           -1.0f,      2.0f,        -2.0f,      3.0f,   -3.0f,   0.5f,    -0.5f,
                           1e-45f,     -1e-45f,     3e38f,      -3e38f, 0x1p23f, 0x1p24f, -0x1p23f,
                           8388609.0f, 16777218.0f, 1.5f,       -1.5f,  -127.0f, -149.0f, -150.0f,
                           128.0f,     0.99999994f, 1.0000001f, 7.0f,   -7.0f,   1e10f};
  for (float x : special) {
    for (float y : special) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  const size_t n_special = a.size();
  for (int i = 0; i < 400000; ++i) {
    float x, y;
    switch (i % 5) {
      case 0: {
        uint32_t u[2] = {static_cast<uint32_t>(g()), static_cast<uint32_t>(g())};
        std::memcpy(&x, &u[0], sizeof(x));
        std::memcpy(&y, &u[1], sizeof(y));
        break;
      }
      case 1:  // results across the whole range, denormals and overflow
        x = std::ldexp(unit(g) + 2.0f, static_cast<int>(g() % 40) - 20);
        y = unit(g) * 160.0f / std::log2(std::fabs(x));
        break;
      case 2:  // bases near 1, large exponents
        x = 1.0f + unit(g) * std::ldexp(1.0f, -static_cast<int>(g() % 24));
        y = unit(g) * std::ldexp(1.0f, static_cast<int>(g() % 30));
        break;
      case 3:  // negative bases, integer exponents
        x = unit(g) * 20.0f;
        y = std::round(unit(g) * 40.0f);
        break;
      default:
        x = std::ldexp(unit(g), static_cast<int>(g() % 280) - 150);
        y = unit(g) * 8.0f;
        break;
    }
    if (!std::isfinite(y)) y = 1.0f;
    a.push_back(x);
    b.push_back(y);
  }
  // Whole vectors of positive finite bases and finite exponents, which skip
  // the special cases (pow_f), x^0 and 1^y among them.
  for (int i = 0; i < 4096; ++i) {
    float x = std::ldexp(unit(g) + 2.0f, static_cast<int>(g() % 16) - 8);
    float y = unit(g) * 30.0f;
    if (i % 97 == 0) y = 0.0f;
    if (i % 89 == 0) x = 1.0f;
    a.push_back(x);
    b.push_back(y);
  }
  const int pow_op = static_cast<int>(BinaryMath::Pow);
  std::vector<float> first;
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    std::vector<float> out(a.size());
    m->binary_f32[pow_op](out.data(), a.data(), b.data(), static_cast<int64_t>(a.size()));
    for (size_t i = 0; i < a.size(); ++i) {
      const float want = std::pow(a[i], b[i]);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(out[i])) << std::hexfloat << a[i] << ", " << b[i];
        continue;
      }
      const bool edge = i < n_special || a[i] == 0.0f || !std::isfinite(a[i]) ||
                        !std::isfinite(b[i]) || b[i] == 0.0f || a[i] == 1.0f;
      if (edge) {
        ASSERT_TRUE(same_bits(out[i], want) || std::isnan(want))
            << std::hexfloat << a[i] << ", " << b[i] << " gave " << out[i] << ", want " << want;
        continue;
      }
      // Error in ulp of the float result against pow in double.
      const double exact = std::pow(static_cast<double>(a[i]), static_cast<double>(b[i]));
      if (std::fabs(exact) > 0x1.fffffep127) {
        ASSERT_TRUE(std::isinf(out[i]) && std::signbit(out[i]) == std::signbit(exact));
        continue;
      }
      int e = 0;
      std::frexp(exact, &e);
      const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
      ASSERT_LE(std::fabs(static_cast<double>(out[i]) - exact) / ulp, 0.5 + 0x1p-14)
          << std::hexfloat << a[i] << ", " << b[i] << " gave " << out[i];
    }
    if (first.empty()) {
      first = out;
    } else {
      for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bits(out[i], first[i])) << i;
    }
    for (int64_t n = 1; n <= 40; ++n) {
      std::vector<float> part(a.begin() + 1, a.begin() + 1 + n);
      m->binary_f32[pow_op](part.data(), part.data(), b.data() + 1, n);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_bits(part[static_cast<size_t>(i)], out[static_cast<size_t>(i) + 1]))
            << "tail " << n << " " << i;
      }
    }
  }
}

// Whole vectors of finite operands with |a / b| < 2^22 take the float
// quotient (vec_math_impl.inc, fmod_f): quotients near integers (where the
// float division rounds up to one), up to the 2^22 boundary, denormal
// divisors and every sign, exact as the scalar definitions.
TEST(NativeVecMath, RemainderAndFloorDivideFromTheFloatQuotientAreExact) {
  std::mt19937 g(19);
  std::uniform_real_distribution<float> unit(-1, 1);
  std::uniform_int_distribution<int> expo(-140, 100);
  std::vector<float> a, b;
  for (int i = 0; i < 60000; ++i) {
    float y = std::ldexp(unit(g), expo(g));
    if (y == 0.0f) y = 1.0f;
    const int kind = i % 4;
    float x;
    if (kind == 0) {
      x = y * std::ldexp(unit(g), 22);  // up to the boundary
    } else if (kind == 1) {
      // k b rounded, and its neighbours: the quotient is an integer or
      // within an ulp of one.
      const float k = std::round(std::ldexp(unit(g), 1 + static_cast<int>(g() % 21)));
      x = k * y;
      if (g() % 3 == 0) x = std::nextafter(x, 0.0f);
      if (g() % 3 == 1) x = std::nextafter(x, kInf);
    } else if (kind == 2) {
      x = y * unit(g);  // |a| < |b|
    } else {
      x = std::ldexp(unit(g), expo(g));
      if (!(std::fabs(x) < std::fabs(y) * 0x1p22f)) x = y;
    }
    a.push_back(x);
    b.push_back(y);
  }
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    std::vector<float> out(a.size());
    for (BinaryMath op : {BinaryMath::Remainder, BinaryMath::FloorDivide}) {
      m->binary_f32[static_cast<int>(op)](out.data(), a.data(), b.data(),
                                          static_cast<int64_t>(a.size()));
      for (size_t i = 0; i < a.size(); ++i) {
        const float want = binary_ref(op, a[i], b[i]);
        ASSERT_TRUE(same_bits(out[i], want))
            << static_cast<int>(op) << ": " << std::hexfloat << a[i] << ", " << b[i] << " gave "
            << out[i] << ", want " << want;
      }
    }
  }
}

// NaN and the infinities replaced, every other bit pattern kept, in every
// variant, on every length (full vectors and padded tails), in place too.
TEST(NativeVecMath, NanToNum) {
  const float pool[] = {1.5f, kNan, kInf, -kInf, -0.0f, 0x1p-140f, 3e38f, -7.0f};
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    for (int64_t n = 0; n <= 40; ++n) {
      std::vector<float> x(static_cast<size_t>(n)), want(x.size()), out(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        x[i] = pool[(i * 3 + static_cast<size_t>(n)) % 8];
        want[i] = std::isnan(x[i]) ? 5.0f : x[i] == kInf ? 6.0f : x[i] == -kInf ? -7.0f : x[i];
      }
      m->nan_to_num_f32(out.data(), x.data(), n, 5.0f, 6.0f, -7.0f);
      // memcmp is not given the null data of the empty vectors.
      if (n > 0) {
        EXPECT_EQ(0, std::memcmp(out.data(), want.data(), sizeof(float) * x.size())) << n;
      }
      m->nan_to_num_f32(x.data(), x.data(), n, 5.0f, 6.0f, -7.0f);
      if (n > 0) {
        EXPECT_EQ(0, std::memcmp(x.data(), want.data(), sizeof(float) * x.size())) << n;
      }
    }
    // Finite runs (the loop's all-finite vectors are stored as they are,
    // the largest float and the smallest denormal included) with one
    // special value at every position.
    const float finite[] = {1.5f, -0.0f, 0x1p-149f, 3.4028235e38f, -3.4028235e38f, -7.0f};
    for (float special : {kNan, kInf, -kInf}) {
      for (size_t at = 0; at < 70; ++at) {
        std::vector<float> x(70), want(70), out(70);
        for (size_t i = 0; i < x.size(); ++i) x[i] = want[i] = finite[i % 6];
        x[at] = special;
        want[at] = std::isnan(special) ? 5.0f : special > 0 ? 6.0f : -7.0f;
        m->nan_to_num_f32(out.data(), x.data(), 70, 5.0f, 6.0f, -7.0f);
        ASSERT_EQ(0, std::memcmp(out.data(), want.data(), sizeof(float) * 70)) << at;
      }
    }
  }
}

TEST(NativeVecMath, NormalPairsAreBoxMuller) {
  std::vector<float> u1, u2;
  for (int k = 0; k < 37; ++k) {
    u1.push_back(1.0f - static_cast<float>(k) / 37.0f);
    u2.push_back(static_cast<float>(k) / 41.0f);
  }
  u1.push_back(0x1p-24f);  // the smallest draw: the largest radius
  u2.push_back(0.999999940f);
  // The quadrants' edges (the angle is reduced on u2) and draws beside them.
  for (int e = 1; e <= 8; ++e) {
    for (const float d : {-0x1p-24f, 0.0f, 0x1p-24f}) {
      const float v = static_cast<float>(e) / 8.0f + d;
      if (v >= 1.0f) continue;
      u1.push_back(0.5f);
      u2.push_back(v);
    }
  }
  std::vector<float> first;
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    std::vector<float> out(2 * u1.size());
    m->normal_pairs_f32(out.data(), u1.data(), u2.data(), static_cast<int64_t>(u1.size()));
    if (first.empty()) first = out;
    EXPECT_EQ(out, first) << "the variants differ";
    for (size_t k = 0; k < u1.size(); ++k) {
      const double r = std::sqrt(-2.0 * std::log(static_cast<double>(u1[k])));
      const double t = 2.0 * 3.14159265358979323846 * static_cast<double>(u2[k]);
      EXPECT_NEAR(out[2 * k], r * std::cos(t), 1e-6 * (1 + r)) << k;
      EXPECT_NEAR(out[2 * k + 1], r * std::sin(t), 1e-6 * (1 + r)) << k;
    }
  }
}

TEST(NativeVecMath, SoftmaxRow) {
  for (const VecMath* m : variants()) {
    SCOPED_TRACE(m->isa);
    for (int64_t n : {1, 5, 16, 33, 1000}) {
      std::vector<float> x(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        x[static_cast<size_t>(i)] = static_cast<float>((i * 37) % 23) - 11.5f;
      if (n > 4) x[3] = -kInf;
      double mx = -kInf, sum = 0;
      for (float v : x) mx = std::max(mx, static_cast<double>(v));
      for (float v : x) sum += std::exp(v - mx);
      std::vector<float> y(x.size()), ly(x.size());
      m->softmax_row_f32(y.data(), x.data(), n, false);
      m->softmax_row_f32(ly.data(), x.data(), n, true);
      for (size_t i = 0; i < x.size(); ++i) {
        const double p = std::exp(x[i] - mx) / sum;
        EXPECT_NEAR(y[i], p, 1e-6 * p + 1e-30) << n << " " << i;
        if (std::isinf(x[i])) {
          EXPECT_EQ(ly[i], -kInf);
        } else {
          EXPECT_NEAR(ly[i], std::log(p), 1e-5 * std::abs(std::log(p)) + 1e-6) << n << " " << i;
        }
      }
      // Every variant adds in the same order: the same bits.
      std::vector<float> base(x.size()), lbase(x.size());
      variants()[0]->softmax_row_f32(base.data(), x.data(), n, false);
      variants()[0]->softmax_row_f32(lbase.data(), x.data(), n, true);
      for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_TRUE(same_bits(y[i], base[i])) << n << " " << i;
        EXPECT_TRUE(same_bits(ly[i], lbase[i])) << n << " " << i;
      }
      std::vector<float> nan_row(x);
      nan_row[0] = kNan;
      m->softmax_row_f32(y.data(), nan_row.data(), n, false);
      for (float v : y) EXPECT_TRUE(std::isnan(v));
    }
  }
}

TEST(NativeVecMath, SoftmaxColumns) {
  for (int64_t cols : {1, 5, 16, 17, 40, 64, 100}) {
    for (int64_t n : {1, 2, 7, 300}) {
      SCOPED_TRACE(std::to_string(n) + " rows x " + std::to_string(cols) + " columns");
      const int64_t stride = cols + 3;  // gaps the kernel must not write
      std::vector<float> x(static_cast<size_t>(n * stride));
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) - 11.5f;
      const auto at = [&](int64_t k, int64_t i) { return static_cast<size_t>(k * stride + i); };
      if (n > 1 && cols > 3) {
        x[at(1, 2)] = -kInf;  // one -inf: its probability is 0
        x[at(0, 1)] = kNan;   // that column is NaN, the rest is not
        // exp(120) overflows a float: the last row's maximum must be seen,
        // in the last column (a tail at most widths) and the first.
        x[at(n - 1, cols - 1)] = 120.0f;
        x[at(n - 1, 0)] = 120.0f;
      }
      std::vector<float> first, lfirst;
      for (const VecMath* m : variants()) {
        SCOPED_TRACE(m->isa);
        std::vector<float> y(x.size(), 7.0f), ly(x.size(), 7.0f);
        std::vector<float> work(static_cast<size_t>(2 * cols));
        m->softmax_cols_f32(y.data(), x.data(), n, cols, stride, false, work.data());
        m->softmax_cols_f32(ly.data(), x.data(), n, cols, stride, true, work.data());
        for (int64_t i = 0; i < cols; ++i) {
          double mx = -kInf, sum = 0;
          bool nan = false;
          for (int64_t k = 0; k < n; ++k) {
            nan |= std::isnan(x[at(k, i)]);
            mx = std::max(mx, static_cast<double>(x[at(k, i)]));
          }
          for (int64_t k = 0; k < n; ++k) sum += std::exp(x[at(k, i)] - mx);
          for (int64_t k = 0; k < n; ++k) {
            const float v = x[at(k, i)];
            if (nan) {
              EXPECT_TRUE(std::isnan(y[at(k, i)]) && std::isnan(ly[at(k, i)])) << k << " " << i;
              continue;
            }
            const double p = std::exp(v - mx) / sum;
            EXPECT_NEAR(y[at(k, i)], p, 1e-6 * p + 1e-30) << k << " " << i;
            if (std::isinf(v)) {
              EXPECT_EQ(ly[at(k, i)], -kInf);
            } else {
              EXPECT_NEAR(ly[at(k, i)], std::log(p), 1e-5 * std::abs(std::log(p)) + 1e-6)
                  << k << " " << i;
            }
          }
        }
        for (int64_t k = 0; k < n; ++k) {
          for (int64_t i = cols; i < stride; ++i) {
            EXPECT_EQ(y[at(k, i)], 7.0f) << "gap " << k << " " << i;
            EXPECT_EQ(ly[at(k, i)], 7.0f) << "gap " << k << " " << i;
          }
        }
        // A lane per column: the same bits in every variant.
        if (first.empty()) {
          first = y;
          lfirst = ly;
        }
        for (size_t i = 0; i < y.size(); ++i) {
          EXPECT_TRUE(same_bits(y[i], first[i])) << i;
          EXPECT_TRUE(same_bits(ly[i], lfirst[i])) << i;
        }
      }
    }
  }
}

// The avx512_256 table streams at 32 bytes only where that paid on the
// Zen 4: its binary functions but pow are its own, the rest (the
// compute-bound functions, nan_to_num) is the avx512 table's
// (vec_math_impl.inc).
TEST(NativeVecMath, Avx512x256TableTakesTheComputeBoundFunctionsFromAvx512) {
  const VecMath* narrow = st::native::cpu::vec_math_for("avx512_256");
  if (narrow == nullptr) GTEST_SKIP() << "the CPU has no AVX-512";
  const VecMath* wide = st::native::cpu::vec_math_for("avx512");
  ASSERT_NE(wide, nullptr);
  EXPECT_STREQ(narrow->isa, "avx512_256");
  for (int k = 0; k < st::native::cpu::kUnaryMathCount; ++k) {
    EXPECT_EQ(narrow->unary_f32[k], wide->unary_f32[k]) << k;
  }
  const int pow = static_cast<int>(BinaryMath::Pow);
  for (int k = 0; k < st::native::cpu::kBinaryMathCount; ++k) {
    if (k == pow) {
      EXPECT_EQ(narrow->binary_f32[k], wide->binary_f32[k]);
      EXPECT_EQ(narrow->binary_scalar_f32[k], wide->binary_scalar_f32[k]);
    } else {
      EXPECT_NE(narrow->binary_f32[k], wide->binary_f32[k]) << k;
      EXPECT_NE(narrow->binary_scalar_f32[k], wide->binary_scalar_f32[k]) << k;
    }
  }
  EXPECT_EQ(narrow->nan_to_num_f32, wide->nan_to_num_f32);
  EXPECT_EQ(narrow->normal_pairs_f32, wide->normal_pairs_f32);
  EXPECT_EQ(narrow->softmax_row_f32, wide->softmax_row_f32);
  EXPECT_EQ(narrow->softmax_cols_f32, wide->softmax_cols_f32);
}

}  // namespace
