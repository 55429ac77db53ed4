// Unary pointwise operators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <st/core/parallel.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NativeUnaryOps, FloatingFunctionsPromoteIntegers) {
  Tensor i = make1({0, 1, 4}, ScalarType::Long);
  Tensor e = st::exp(i);
  EXPECT_EQ(e.dtype(), ScalarType::Float);
  expect_close(values(e), {1, std::exp(1.0), std::exp(4.0)});
  expect_close(values(st::log(i)), {-kInf, 0, std::log(4.0)});
  expect_close(values(st::sqrt(i)), {0, 1, 2});
  expect_close(values(st::rsqrt(i)), {kInf, 1, 0.5});
  expect_close(values(st::sin(make1({0, 1}, ScalarType::Double))), {0, std::sin(1.0)});
  expect_close(values(st::cos(make1({0, 1}, ScalarType::Half))), {1, std::cos(1.0)}, 1e-3);
  expect_close(values(st::tanh(make1({-1, 1}, ScalarType::BFloat16))),
               {std::tanh(-1.0), std::tanh(1.0)}, 1e-2);
  expect_close(values(st::sigmoid(make1({0, 2}))), {0.5, 1 / (1 + std::exp(-2.0))});
  auto z = cvalues(st::exp(st::full({1}, Scalar(std::complex<double>(0, 1)))));
  EXPECT_NEAR(z[0].real(), std::cos(1.0), 1e-6);
  Tensor l = make1({1, 2}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::exp_(l),
                      "result type Float can't be cast to the desired output type Long");
  Tensor f = make1({0, 0});
  st::exp_(f);
  expect_close(values(f), {1, 1});
}

TEST(NativeUnaryOps, Tan) {
  // Integers compute in the default float dtype; Half in float, stored back.
  Tensor i = make1({0, 1, -2}, ScalarType::Int);
  Tensor t = st::tan(i);
  EXPECT_EQ(t.dtype(), ScalarType::Float);
  expect_close(values(t), {0, std::tan(1.0), std::tan(-2.0)});
  expect_close(values(st::tan(make1({0.5, kNan, kInf}, ScalarType::Double))),
               {std::tan(0.5), kNan, kNan});
  Tensor h = st::tan(make1({0.25}, ScalarType::Half));
  EXPECT_EQ(h.dtype(), ScalarType::Half);
  expect_close(values(h), {std::tan(0.25)}, 1e-3);
  // Non-contiguous input, the method, in place and out=.
  Tensor m = make({0, 1, 2, 3, 4, 5}, {2, 3}, ScalarType::Double);
  expect_close(values(st::transpose(m, 0, 1).tan()),
               {0, std::tan(3.0), std::tan(1.0), std::tan(4.0), std::tan(2.0), std::tan(5.0)});
  Tensor f = make1({0.5, -0.5});
  st::tan_(f);
  expect_close(values(f), {std::tan(0.5), std::tan(-0.5)}, 1e-6);
  Tensor out = make1({0}, ScalarType::Double);
  st::tan_out(out, make1({1, 2}));
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2}));
  expect_close(values(out), {std::tan(1.0), std::tan(2.0)}, 1e-6);
  EXPECT_NATIVE_ERROR(st::tan_(make1({1}, ScalarType::Long)),
                      "result type Float can't be cast to the desired output type Long");
}

TEST(NativeUnaryOps, AbsNegSign) {
  expect_close(values(st::abs(make1({-2, 3}, ScalarType::Int))), {2, 3});
  Tensor c = st::abs(st::full({1}, Scalar(std::complex<double>(3, 4))));
  EXPECT_EQ(c.dtype(), ScalarType::Float);
  expect_close(values(c), {5});
  expect_close(values(st::neg(make1({1, -2}))), {-1, 2});
  EXPECT_NATIVE_ERROR(st::neg(make1({1}, ScalarType::Bool)),
                      "Negation, the `-` operator, on a bool tensor is not supported");
  expect_close(values(st::sign(make1({-3, 0, 5, kNan}))), {-1, 0, 1, 0});
  EXPECT_NATIVE_ERROR(st::sign(st::zeros({1}, ScalarType::ComplexFloat)),
                      "torch.sign is not intended to support complex numbers");
  Tensor out = st::empty({0}, ScalarType::Double);
  st::abs_out(out, make1({-1.5}));
  expect_close(values(out), {1.5});
}

TEST(NativeUnaryOps, ReluGelu) {
  expect_close(values(st::relu(make1({-1, 0, 2}, ScalarType::Int))), {0, 0, 2});
  expect_close(values(st::relu(make1({kNan}))), {kNan});
  expect_close(values(st::gelu(make1({0, 1}))), {0, 0.5 * (1 + std::erf(1 / std::sqrt(2.0)))});
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  expect_close(values(st::gelu(make1({1}), "tanh")), {0.5 * (1 + std::tanh(k * 1.044715))});
  EXPECT_NATIVE_ERROR(st::gelu(make1({1}), "erf"),
                      "approximate argument must be either none or tanh.");
  EXPECT_NATIVE_ERROR(st::gelu(make1({1}, ScalarType::Long)), "not implemented for 'Long'");
}

// The bytes of t's elements in row-major order.
std::vector<unsigned char> element_bytes(const Tensor& t) {
  Tensor c = st::contiguous(t);
  const size_t bytes = static_cast<size_t>(c.numel()) * static_cast<size_t>(c.element_size());
  std::vector<unsigned char> out(bytes);
  if (bytes > 0) std::memcpy(out.data(), c.const_data_ptr(), bytes);
  return out;
}

// neg, abs, relu and sign on float32 and int64 run the per-ISA loops on
// contiguous rows, by blocks on long strided rows and through the scalar
// kernel on short ones: the same bits in every layout, in place and
// out=, edge values included.
TEST(NativeUnaryOps, SimpleOpsGiveOneResultWhateverTheLayout) {
  using Fn = Tensor (*)(const Tensor&);
  const Fn fns[] = {
      +[](const Tensor& t) { return st::neg(t); }, +[](const Tensor& t) { return st::abs(t); },
      +[](const Tensor& t) { return st::relu(t); }, +[](const Tensor& t) { return st::sign(t); }};
  const Fn inplace[] = {
      +[](const Tensor& t) { return st::neg_(t); }, +[](const Tensor& t) { return st::abs_(t); },
      +[](const Tensor& t) { return st::relu_(t); }, +[](const Tensor& t) { return st::sign_(t); }};
  const double edges_f[] = {0.0, -0.0, kNan, -kNan, kInf, -kInf, 1e-45, -1e-45, -2.5, 7.0};
  const double edges_i[] = {-9223372036854775808.0, -4.0, -1.0, 0.0, 1.0, 3.0,
                            4611686018427387904.0};
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Long}) {
    const bool is_float = dtype == ScalarType::Float;
    std::vector<double> v(2 * 24 * 24);
    for (size_t i = 0; i < v.size(); ++i) v[i] = is_float ? edges_f[i % 10] : edges_i[i % 7];
    Tensor x = make1(v, dtype);
    const int64_t n = static_cast<int64_t>(v.size());
    // The same 576 elements: every other one of x, as rows of 576, 24 and
    // 6 strided elements, and packed.
    Tensor strided = x.slice(0, 0, n, 2);
    Tensor rows24 = x.view({24, 48}).slice(1, 0, 48, 2);
    Tensor rows6 = x.view({96, 12}).slice(1, 0, 12, 2);
    Tensor packed = st::contiguous(strided);
    for (int op = 0; op < 4; ++op) {
      SCOPED_TRACE(std::to_string(op) + (is_float ? " f32" : " i64"));
      const std::vector<unsigned char> want = element_bytes(fns[op](packed));
      EXPECT_EQ(element_bytes(fns[op](strided)), want);
      EXPECT_EQ(element_bytes(fns[op](rows24)), want);
      EXPECT_EQ(element_bytes(fns[op](rows6)), want);
      Tensor copy = st::clone(packed);  // contiguous() would alias packed
      inplace[op](copy);
      EXPECT_EQ(element_bytes(copy), want);
      for (int64_t width : {48, 12}) {
        Tensor base = st::clone(x);
        Tensor view = base.view({n / width, width}).slice(1, 0, width, 2);
        inplace[op](view);
        EXPECT_EQ(element_bytes(view), want) << "in place, rows of " << width / 2;
      }
      Tensor out = st::empty({n}, dtype).slice(0, 0, n, 2);  // 576, strided
      if (op == 0) st::neg_out(out, rows24.reshape({-1}));
      if (op == 1) st::abs_out(out, rows24.reshape({-1}));
      if (op == 3) st::sign_out(out, rows24.reshape({-1}));
      if (op != 2) {
        EXPECT_EQ(element_bytes(out), want) << "out=";
      }
    }
  }
  // The edge values themselves: INT64_MIN wraps; the float sign bit.
  const double kMin = -9223372036854775808.0;
  expect_close(values(st::abs(make1({kMin, -3}, ScalarType::Long))), {kMin, 3});
  expect_close(values(st::neg(make1({kMin, -3}, ScalarType::Long))), {kMin, 3});
  expect_close(values(st::sign(make1({kMin, 0, 5}, ScalarType::Long))), {-1, 0, 1});
  expect_close(values(st::relu(make1({kMin, 0, 5}, ScalarType::Long))), {0, 0, 5});
  const std::vector<double> neg = values(st::neg(make1({0.0, -0.0})));
  EXPECT_TRUE(std::signbit(neg[0]));
  EXPECT_FALSE(std::signbit(neg[1]));
  EXPECT_FALSE(std::signbit(values(st::abs(make1({-0.0})))[0]));
  EXPECT_TRUE(std::signbit(values(st::relu(make1({-0.0})))[0]));  // PyTorch's max(x, 0)
  EXPECT_FALSE(std::signbit(values(st::sign(make1({-0.0})))[0]));
  expect_close(values(st::sign(make1({kNan, -kInf, kInf}))), {0, -1, 1});
  expect_close(values(st::relu(make1({kNan, -kInf, kInf}))), {kNan, 0, kInf});
}

TEST(NativeUnaryOps, NanInfChecks) {
  Tensor a = make1({1, kNan, kInf, -kInf});
  expect_close(values(st::isnan(a)), {0, 1, 0, 0});
  expect_close(values(st::isinf(a)), {0, 0, 1, 1});
  EXPECT_EQ(st::isnan(make1({1}, ScalarType::Long)).dtype(), ScalarType::Bool);
  const double fmax = std::numeric_limits<float>::max();
  expect_close(values(st::nan_to_num(a)), {1, 0, fmax, -fmax});
  expect_close(values(st::nan_to_num(a, 5.0, 6.0, -7.0)), {1, 5, 6, -7});
  expect_close(values(st::nan_to_num(make1({kInf}, ScalarType::Half))), {65504});
  expect_close(values(st::nan_to_num(make1({3}, ScalarType::Int))), {3});
  // -0 replacements stay -0, in the vector loop (64 floats) and its tail.
  std::vector<double> specials;
  for (int i = 0; i < 67; ++i) specials.push_back(i % 3 == 0 ? kNan : i % 3 == 1 ? kInf : -kInf);
  for (const double v : values(st::nan_to_num(make1(specials), -0.0, -0.0, -0.0))) {
    ASSERT_TRUE(v == 0 && std::signbit(v));
  }
}

// |got - want| in units of the float spacing at want (the measure of
// tests/core/native/cpu/test_vec_math.cpp).
double ulps_off(float got, double want) {
  const float wantf = static_cast<float>(want);
  int e;
  std::frexp(wantf == 0 ? want : static_cast<double>(wantf), &e);
  return std::abs(static_cast<double>(got) - want) / std::ldexp(1.0, std::max(e - 24, -149));
}

double gelu_reference(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }

// Whether gelu(x) = got is within `ulps` of the double reference, or
// within 2^-24 of it where it is smaller than that (x < -5.6); NaN where
// the reference is NaN, the same infinity.
bool gelu_within(float x, float got, double ulps) {
  const double want = gelu_reference(x);
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return want == got;
  if (std::abs(want) < 0x1p-24) return std::abs(static_cast<double>(got) - want) <= 0x1p-24;
  return ulps_off(got, want) <= ulps;
}

// Equal element by element, NaN matching NaN.
bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  }
  return true;
}

TEST(NativeUnaryOps, GeluOfFloatKeepsItsBoundAtAnyLengthAndLayout) {
  // One per-ISA function serves every float32 gelu, long contiguous runs
  // (split across threads) and strided blocks alike: 3 ulp over every
  // float whose result is at least 2^-24 in magnitude, and -0.0 within
  // 2^-24 below (tests/core/native/cpu/test_vec_math.cpp).
  constexpr double kUlps = 3;
  const int64_t n = 65543;
  Tensor x = st::linspace(-16.0, 16.0, n, ScalarType::Float);
  float* px = static_cast<float*>(x.data_ptr());
  const float kInfF = std::numeric_limits<float>::infinity();
  px[1] = kInfF;
  px[2] = -kInfF;
  px[3] = std::numeric_limits<float>::quiet_NaN();
  px[n - 2] = -40.0f;
  const std::vector<double> in = values(x);

  Tensor y = st::gelu(x);
  Tensor out = st::empty({n}, ScalarType::Float);
  st::gelu_out(out, x);
  Tensor inplace = st::clone(x);
  st::gelu_(inplace);
  for (const Tensor& r : {y, out, inplace}) {
    const std::vector<double> got = values(r);
    int failures = 0;
    for (int64_t i = 0; i < n && failures < 5; ++i) {
      if (!gelu_within(static_cast<float>(in[i]), static_cast<float>(got[i]), kUlps)) {
        ++failures;
        ADD_FAILURE() << "gelu(" << in[i] << ") = " << got[i] << ", want " << gelu_reference(in[i]);
      }
    }
  }
  EXPECT_TRUE(same_values(values(out), values(y)));
  EXPECT_TRUE(same_values(values(inplace), values(y)));

  // From inside one of our parallel regions (the whole tensor as one run)
  // the same results.
  std::vector<Tensor> nested(2);
  st::parallel_for(0, 2, 1, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) nested[static_cast<size_t>(k)] = st::gelu(x);
  });
  for (const Tensor& r : nested) EXPECT_TRUE(same_values(values(r), values(y)));

  // A strided operand of the same length: the same bound, -0.0 kept, and
  // the bits of its contiguous copy.
  Tensor wide = st::linspace(-16.0, 16.0, 2 * n, ScalarType::Float);
  static_cast<float*>(wide.data_ptr())[0] = -0.0f;
  Tensor strided = wide.slice(0, 0, 2 * n, 2);
  const std::vector<double> sin = values(strided);
  const std::vector<double> sgot = values(st::gelu(strided));
  int failures = 0;
  for (int64_t i = 0; i < n && failures < 5; ++i) {
    if (!gelu_within(static_cast<float>(sin[i]), static_cast<float>(sgot[i]), kUlps)) {
      ++failures;
      ADD_FAILURE() << "strided gelu(" << sin[i] << ") = " << sgot[i] << ", want "
                    << gelu_reference(sin[i]);
    }
  }
  EXPECT_TRUE(std::signbit(sgot[0]));
  EXPECT_TRUE(same_values(sgot, values(st::gelu(st::contiguous(strided)))));
}

TEST(NativeUnaryOps, FloatFunctionsGiveOneResultWhateverTheLayout) {
  // float32 runs the vector functions on contiguous and strided operands
  // alike (a strided chunk goes through a buffer), and on rows that are a
  // slice of wider ones (a call per row, the rows' stride not their
  // length): bit-identical results.
  Tensor x = st::linspace(-9.0, 9.0, 2 * 301, ScalarType::Float);
  Tensor strided = x.slice(0, 0, 2 * 301, 2);
  Tensor packed = st::contiguous(strided);
  Tensor rows = x.view({7, 86}).slice(1, 0, 43);  // rows of 43 floats, 86 apart
  Tensor rows_packed = st::contiguous(rows);
  for (auto f :
       {+[](const Tensor& t) { return st::exp(t); }, +[](const Tensor& t) { return st::sin(t); },
        +[](const Tensor& t) { return st::tanh(t); },
        +[](const Tensor& t) { return st::gelu(t); }}) {
    EXPECT_EQ(values(f(strided)), values(f(packed)));
    EXPECT_EQ(values(f(rows)), values(f(rows_packed)));
  }
  Tensor g = st::gelu(make1({-2, 0.5, 3}));
  for (int i = 0; i < 3; ++i) {
    const double v = std::vector<double>{-2, 0.5, 3}[i];
    EXPECT_NEAR(values(g)[i], 0.5 * v * std::erfc(-v / std::sqrt(2.0)), 1e-6);
  }
}

// An integer (or bool) input to a float function is converted block by
// block inside the loop: the result has the bits of the function of the
// input converted to float first, for every integer dtype, on lengths
// around the 256-element blocks, contiguous and strided, and into a
// Double out= (written through the iterator's float temporary).
TEST(NativeUnaryOps, IntegerInputsGiveTheBitsOfTheFloatConvertedInput) {
  using Fn = Tensor (*)(const Tensor&);
  const Fn fns[] = {+[](const Tensor& t) { return st::exp(t); },
                    +[](const Tensor& t) { return st::sin(t); },
                    +[](const Tensor& t) { return st::rsqrt(t); },
                    +[](const Tensor& t) { return st::sigmoid(t); }};
  for (ScalarType dt : {ScalarType::Long, ScalarType::Int, ScalarType::Short, ScalarType::Char,
                        ScalarType::Byte, ScalarType::Bool, ScalarType::UInt32}) {
    for (int64_t n : {int64_t{1}, int64_t{255}, int64_t{256}, int64_t{257}, int64_t{1000}}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " n " << n);
      // Values in [-50, 50] wrap into the smaller and unsigned dtypes.
      Tensor wide = st::remainder(st::arange(2 * n, ScalarType::Long), 101);
      wide = st::sub(wide, Scalar(int64_t{50}));
      const Tensor x = st::to(wide, dt);
      const Tensor strided = x.slice(0, 0, 2 * n, 2);
      for (Fn f : fns) {
        const Tensor want = f(st::to(x, ScalarType::Float));
        const Tensor got = f(x);
        EXPECT_EQ(got.dtype(), ScalarType::Float);
        EXPECT_TRUE(same_values(values(got), values(want)));
        EXPECT_TRUE(same_values(values(f(strided)), values(want.slice(0, 0, 2 * n, 2))));
      }
      Tensor out = st::empty({0}, ScalarType::Double);
      st::exp_out(out, x);
      EXPECT_TRUE(same_values(values(out), values(st::exp(st::to(x, ScalarType::Float)))));
    }
  }
}

// Every length (the vectorized loop's tails), both float types, in place,
// out= and strided: NaN and each infinity replaced, every other value kept
// (signed zeros, denormals, the largest finite values).
TEST(NativeUnaryOps, NanToNumOnEveryLength) {
  const std::vector<double> pool = {1.5,  kNan, kInf,  -kInf, -0.0,  1e-40,
                                    -2.0, 3e38, -kNan, 0.0,   -3e38, 7.0};
  for (const ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n = 1; n <= 37; n += (n < 20 ? 1 : 17)) {
      SCOPED_TRACE(n);
      std::vector<double> x(static_cast<size_t>(n)), want(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        const double v = pool[static_cast<size_t>((i * 5 + n) % 12)];
        x[static_cast<size_t>(i)] = dt == ScalarType::Float ? static_cast<float>(v) : v;
        want[static_cast<size_t>(i)] = std::isnan(v) ? 5.0
                                       : v == kInf   ? 6.0
                                       : v == -kInf  ? -7.0
                                                     : x[i];
      }
      Tensor t = make1(x, dt);
      EXPECT_EQ(values(st::nan_to_num(t, 5.0, 6.0, -7.0)), want);
      Tensor o = st::empty({n}, dt);
      st::nan_to_num_out(o, t, 5.0, 6.0, -7.0);
      EXPECT_EQ(values(o), want);
      Tensor wide = st::empty({2 * n}, dt);
      Tensor strided = wide.slice(0, 0, 2 * n, 2);
      st::copy_(strided, t);
      st::nan_to_num_(strided, 5.0, 6.0, -7.0);
      EXPECT_EQ(values(strided), want);
      for (size_t i = 0; i < want.size(); ++i) {  // signed zeros kept
        EXPECT_EQ(std::signbit(values(o)[i]), std::signbit(want[i])) << i;
      }
    }
  }
}

// Half and BFloat16 compute in float (the float vector functions) and
// round once: the float32 operator's result on the widened input, rounded,
// at every length (the conversion blocks' tails) and strided.
TEST(NativeUnaryOps, ReducedFloatFunctionsRoundTheFloatResult) {
  using Fn = Tensor (*)(const Tensor&);
  const Fn fns[] = {+[](const Tensor& t) { return st::exp(t); },
                    +[](const Tensor& t) { return st::log(t); },
                    +[](const Tensor& t) { return st::sqrt(t); },
                    +[](const Tensor& t) { return st::rsqrt(t); },
                    +[](const Tensor& t) { return st::sin(t); },
                    +[](const Tensor& t) { return st::cos(t); },
                    +[](const Tensor& t) { return st::tanh(t); },
                    +[](const Tensor& t) { return st::sigmoid(t); },
                    +[](const Tensor& t) { return st::gelu(t); },
                    +[](const Tensor& t) { return st::gelu(t, "tanh"); }};
  for (const ScalarType dt : {ScalarType::Half, ScalarType::BFloat16}) {
    for (const int64_t n : {1, 9, 257, 600}) {
      SCOPED_TRACE(n);
      Tensor x = st::to(st::linspace(-6.0, 7.0, 2 * n, ScalarType::Float), dt);
      Tensor strided = x.slice(0, 0, 2 * n, 2);
      Tensor packed = st::contiguous(strided);
      for (size_t f = 0; f < std::size(fns); ++f) {
        SCOPED_TRACE(f);
        const Tensor want = st::to(fns[f](st::to(packed, ScalarType::Float)), dt);
        const Tensor got = fns[f](packed);
        EXPECT_EQ(got.dtype(), dt);
        // NaN (log, sqrt of negatives) compares as equal to NaN here.
        const auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
          if (a.size() != b.size()) return false;
          for (size_t i = 0; i < a.size(); ++i) {
            if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
          }
          return true;
        };
        EXPECT_TRUE(same(values(got), values(want)));
        EXPECT_TRUE(same(values(fns[f](strided)), values(want)));
      }
    }
  }
}

TEST(NativeUnaryOps, NanToNumInPlaceOnIntegersIsTheIdentity) {
  Tensor i = make1({3, -4}, ScalarType::Long);
  const void* data = i.const_data_ptr();
  Tensor r = st::nan_to_num_(i, 1.0, 2.0, 3.0);
  EXPECT_TRUE(r.is_same(i));
  EXPECT_EQ(r.const_data_ptr(), data);
  expect_close(values(i), {3, -4});
  // An expanded tensor writes nothing either, so its overlap is no error.
  Tensor b = st::nan_to_num_(make1({1}, ScalarType::Bool).expand({4}));
  expect_close(values(b), {1, 1, 1, 1});
}

// On integers the functional and out= forms copy: the result keeps self's
// layout (empty_like), out= is resized; out must have self's dtype.
TEST(NativeUnaryOps, NanToNumOnIntegersCopies) {
  const Tensor t = st::transpose(make({1, -2, 3, 4, 5, -6}, {2, 3}, ScalarType::Long), 0, 1);
  const Tensor r = st::nan_to_num(t, 1.0, 2.0, 3.0);
  EXPECT_NE(r.const_data_ptr(), t.const_data_ptr());
  EXPECT_EQ(r.strides().vec(), t.strides().vec());
  EXPECT_EQ(values(r), values(t));
  Tensor out = st::empty({0}, ScalarType::Long);
  st::nan_to_num_out(out, t, 1.0, 2.0, 3.0);
  EXPECT_EQ(out.sizes().vec(), t.sizes().vec());
  EXPECT_EQ(values(out), values(t));
  const Tensor b = st::nan_to_num(make1({1, 0}, ScalarType::Bool));
  EXPECT_EQ(b.dtype(), ScalarType::Bool);
  expect_close(values(b), {1, 0});
  Tensor wrong = st::empty({3, 2}, ScalarType::Float);
  EXPECT_NATIVE_ERROR(st::nan_to_num_out(wrong, t, 1.0, 2.0, 3.0),
                      "nan_to_num: dtype of out: Float should be same as input: Long");
  EXPECT_NATIVE_ERROR(st::nan_to_num_out(st::empty({2}, ScalarType::Long), make1({1.0f, 2.0f})),
                      "nan_to_num: dtype of out: Long should be same as input: Float");
}

}  // namespace
