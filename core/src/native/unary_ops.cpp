// Unary pointwise kernels: abs, neg, sign, exp, log, sqrt, rsqrt, sin, cos,
// tan, tanh, sigmoid, relu, gelu, logical_not, bitwise_not, isnan, isinf,
// nan_to_num.
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include <st/core/error.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/resize.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_kernels.h"
#include "cpu/vec_loops.h"
#include "cpu/vec_math.h"
#include "direct_output.h"
#include "unary_checks.h"

namespace st::native {

namespace {

const Tensor kNone;

// -x of a signed integer, two's complement wrapping (the minimum stays the
// minimum, as PyTorch gives it), computed unsigned: no signed overflow.
template <typename T>
T wrapping_neg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(U{0} - static_cast<U>(x)));
}

struct UnaryOptions {
  bool int_to_float = false;
  std::optional<ScalarType> kernel_out;
  bool real_out = false;  // kernel writes the real dtype of the common dtype (abs)
  // The vector function that computes the operator on float32 (vec_math.h).
  std::optional<cpu::UnaryMath> vec_f32;
  // Or one with arguments bound: fn(out, in, n), which float32 takes
  // first when both are set (vec_f32 then serves Half and BFloat16).
  std::function<void(float*, const float*, int64_t)> vec_f32_fn;
  // The per-ISA loop that computes the operator on float32 and int64
  // (vec_kernels.h), bit for bit as the scalar kernel `make` gives.
  std::optional<cpu::SimpleUnaryOp> simple;
};

// A float32 iterator through a vector function fn(out, in, n): contiguous
// chunks directly, strided ones by blocks through stack buffers, so that every
// element gets the same function whatever the layout.
template <typename Fn>
void vec_unary_f32(TensorIterator& iter, const Fn& fn) {
  cpu::vec_unary_loop<float, float>(iter, fn, nullptr);
}

template <uint64_t kSet, typename Make>
Tensor unary_op(const char* name, const Tensor& out, const Tensor& self, bool inplace,
                const UnaryOptions& opt, const Make& make) {
  // An integer input to a float32 vector function stays integer in the
  // iterator; the loop converts it (vec_unary_through_float). In place,
  // the iterator's check refuses the float result as before.
  const bool int_through_float = opt.int_to_float && (opt.vec_f32 || opt.vec_f32_fn) && !inplace &&
                                 !opt.kernel_out && !opt.real_out &&
                                 cpu::converts_to_float_in_loop(self.dtype());
  TensorIteratorConfig cfg;
  cfg.name(name)
      .add_output(out)
      .add_input(self, !int_through_float)
      .is_inplace(inplace)
      .promote_integer_inputs_to_float(opt.int_to_float);
  if (int_through_float) {
    cfg.kernel_output_dtype(ScalarType::Float);
  } else if (opt.kernel_out) {
    cfg.kernel_output_dtype(*opt.kernel_out);
  } else if (opt.real_out) {
    ScalarType common = self.dtype();
    if (opt.int_to_float && torch::headeronly::isIntegralType(common, true))
      common = ScalarType::Float;
    cfg.kernel_output_dtype(torch::headeronly::toRealValueType(common));
  }
  TensorIterator iter = cfg.build();
  if (int_through_float) {
    const auto fn = opt.vec_f32_fn ? opt.vec_f32_fn
                                   : std::function<void(float*, const float*, int64_t)>(
                                         cpu::vec_math().unary_f32[static_cast<int>(*opt.vec_f32)]);
    dispatch_dtype<cpu::kIntegerInputsToFloat>(self.dtype(), name, [&](auto tag) {
      cpu::vec_unary_through_float<typename decltype(tag)::type, float>(iter, fn);
    });
    return iter.output();
  }
  if (opt.simple && iter.dtype(0) == iter.dtype(1)) {
    const cpu::VecKernels& vk = cpu::vec_kernels();
    const int op = static_cast<int>(*opt.simple);
    if (iter.dtype(0) == ScalarType::Float) {
      cpu::vec_unary_loop<float, float>(iter, vk.simple_unary_f32[op], make(TypeTag<float>{}));
      return iter.output();
    }
    if (iter.dtype(0) == ScalarType::Long) {
      cpu::vec_unary_loop<int64_t, int64_t>(iter, vk.simple_unary_i64[op],
                                            make(TypeTag<int64_t>{}));
      return iter.output();
    }
  }
  if ((opt.vec_f32 || opt.vec_f32_fn) && iter.dtype(0) == ScalarType::Float &&
      iter.dtype(1) == ScalarType::Float) {
    if (opt.vec_f32_fn) {
      vec_unary_f32(iter, opt.vec_f32_fn);
    } else {
      vec_unary_f32(iter, cpu::vec_math().unary_f32[static_cast<int>(*opt.vec_f32)]);
    }
    return iter.output();
  }
  if (opt.vec_f32 && iter.dtype(0) == iter.dtype(1) &&
      (iter.dtype(0) == ScalarType::Half || iter.dtype(0) == ScalarType::BFloat16)) {
    const auto fn = cpu::vec_math().unary_f32[static_cast<int>(*opt.vec_f32)];
    if (iter.dtype(0) == ScalarType::Half) {
      cpu::vec_unary_through_float<Half, Half>(iter, fn);
    } else {
      cpu::vec_unary_through_float<BFloat16, BFloat16>(iter, fn);
    }
    return iter.output();
  }
  dispatch_dtype<kSet>(iter.common_dtype(), name, [&](auto tag) { cpu_kernel(iter, make(tag)); });
  return iter.output();
}

// A float-like function applied in opmath: f(opmath_t<T>) -> opmath_t<T>.
template <uint64_t kSet, typename F>
Tensor float_unary(const char* name, const Tensor& out, const Tensor& self, bool inplace,
                   const F& f, std::optional<cpu::UnaryMath> vec) {
  UnaryOptions opt;
  opt.int_to_float = true;
  opt.vec_f32 = vec;
  return unary_op<kSet>(name, out, self, inplace, opt, [&f](auto tag) {
    using T = typename decltype(tag)::type;
    return [f](T x) -> T { return from_opmath<T>(f(to_opmath(x))); };
  });
}

constexpr uint64_t kFloatComplex = kAllFloat | kComplexTypes;

struct ExpF {
  template <typename V>
  V operator()(V v) const {
    return std::exp(v);
  }
};
struct LogF {
  template <typename V>
  V operator()(V v) const {
    return std::log(v);
  }
};
struct SqrtF {
  template <typename V>
  V operator()(V v) const {
    return std::sqrt(v);
  }
};
struct RsqrtF {
  template <typename V>
  V operator()(V v) const {
    return V(1) / std::sqrt(v);
  }
};
struct SinF {
  template <typename V>
  V operator()(V v) const {
    return std::sin(v);
  }
};
struct CosF {
  template <typename V>
  V operator()(V v) const {
    return std::cos(v);
  }
};
struct TanF {
  template <typename V>
  V operator()(V v) const {
    return std::tan(v);
  }
};
struct TanhF {
  template <typename V>
  V operator()(V v) const {
    return std::tanh(v);
  }
};
struct SigmoidF {
  template <typename V>
  V operator()(V v) const {
    return V(1) / (V(1) + std::exp(-v));
  }
};

}  // namespace

#define ST_FLOAT_UNARY(NAME, FUNCTOR, VEC)                                        \
  Tensor NAME(const Tensor& self) {                                               \
    return float_unary<kFloatComplex>(#NAME, kNone, self, false, FUNCTOR(), VEC); \
  }                                                                               \
  Tensor NAME##_(const Tensor& self) {                                            \
    float_unary<kFloatComplex>(#NAME "_", self, self, true, FUNCTOR(), VEC);      \
    return self;                                                                  \
  }                                                                               \
  Tensor NAME##_out(const Tensor& self, const Tensor& out) {                      \
    float_unary<kFloatComplex>(#NAME, out, self, false, FUNCTOR(), VEC);          \
    return out;                                                                   \
  }

ST_FLOAT_UNARY(exp, ExpF, cpu::UnaryMath::Exp)
ST_FLOAT_UNARY(log, LogF, cpu::UnaryMath::Log)
ST_FLOAT_UNARY(sqrt, SqrtF, cpu::UnaryMath::Sqrt)
ST_FLOAT_UNARY(rsqrt, RsqrtF, cpu::UnaryMath::Rsqrt)
ST_FLOAT_UNARY(sin, SinF, cpu::UnaryMath::Sin)
ST_FLOAT_UNARY(cos, CosF, cpu::UnaryMath::Cos)
ST_FLOAT_UNARY(tan, TanF, cpu::UnaryMath::Tan)
ST_FLOAT_UNARY(tanh, TanhF, cpu::UnaryMath::Tanh)
ST_FLOAT_UNARY(sigmoid, SigmoidF, cpu::UnaryMath::Sigmoid)
#undef ST_FLOAT_UNARY

void check_unary_not_bool(const char* op, ScalarType dtype) {
  if (dtype != ScalarType::Bool) return;
  const std::string_view name(op);
  ST_CHECK(name != "neg",
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
           "to invert a mask, use the `~` or `logical_not()` operator instead.");
  ST_CHECK(name != "abs", "abs: boolean tensors are not supported");
  ST_CHECK(name != "relu", "Boolean inputs not supported for relu");
  ST_ERROR(op, ": bool tensors are not supported");
}

// ---- abs ------------------------------------------------------------------------
namespace {
Tensor abs_impl(const Tensor& out, const Tensor& self, bool inplace) {
  check_unary_not_bool("abs", self.dtype());
  UnaryOptions opt;
  opt.real_out = true;
  opt.simple = cpu::SimpleUnaryOp::Abs;
  if (inplace) {
    ST_CHECK(!self.is_complex(), "In-place abs is not supported for complex tensors.");
  }
  return unary_op<kAllTypes | kReducedFloatTypes | kComplexTypes>(
      "abs", out, self, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (is_complex_v<T>) {
          using R = typename opmath_t<T>::value_type;
          return [](T x) -> R { return std::abs(to_opmath(x)); };
        } else if constexpr (std::is_integral_v<T>) {
          return [](T x) -> T { return x < 0 ? wrapping_neg(x) : x; };
        } else {
          return [](T x) -> T { return from_opmath<T>(std::abs(to_opmath(x))); };
        }
      });
}
}  // namespace

Tensor abs(const Tensor& self) { return abs_impl(kNone, self, false); }
Tensor abs_(const Tensor& self) {
  abs_impl(self, self, true);
  return self;
}
Tensor abs_out(const Tensor& self, const Tensor& out) {
  abs_impl(out, self, false);
  return out;
}

// ---- neg / sign -------------------------------------------------------------------
namespace {
Tensor neg_impl(const Tensor& out, const Tensor& self, bool inplace) {
  check_unary_not_bool("neg", self.dtype());
  UnaryOptions opt;
  opt.simple = cpu::SimpleUnaryOp::Neg;
  return unary_op<kAllTypes | kReducedFloatTypes | kComplexTypes>(
      "neg", out, self, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          return [](T x) -> T { return wrapping_neg(x); };
        } else {
          return [](T x) -> T { return from_opmath<T>(static_cast<opmath_t<T>>(-to_opmath(x))); };
        }
      });
}
Tensor sign_impl(const Tensor& out, const Tensor& self, bool inplace) {
  ST_CHECK(!self.is_complex(),
           "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
           "torch.sgn instead.");
  UnaryOptions opt;
  opt.simple = cpu::SimpleUnaryOp::Sign;
  return unary_op<kAllTypes | kReducedFloatTypes | kBoolType>(
      "sign", out, self, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T x) -> T {
          if constexpr (std::is_same_v<T, bool>) {
            return x;
          } else {
            using O = opmath_t<T>;
            const O v = to_opmath(x);
            return from_opmath<T>(static_cast<O>((O(0) < v) - (v < O(0))));
          }
        };
      });
}
}  // namespace

Tensor neg(const Tensor& self) { return neg_impl(kNone, self, false); }
Tensor neg_(const Tensor& self) {
  neg_impl(self, self, true);
  return self;
}
Tensor neg_out(const Tensor& self, const Tensor& out) {
  neg_impl(out, self, false);
  return out;
}
Tensor sign(const Tensor& self) { return sign_impl(kNone, self, false); }
Tensor sign_(const Tensor& self) {
  sign_impl(self, self, true);
  return self;
}
Tensor sign_out(const Tensor& self, const Tensor& out) {
  sign_impl(out, self, false);
  return out;
}

// ---- logical_not / bitwise_not ------------------------------------------------------
namespace {
// float32 and int64 through the per-ISA loops (vec_kernels.h), writing
// bool or, for an out= or in-place output of self's dtype, that dtype in
// one pass (as the comparisons do); others through cpu_kernel.
Tensor logical_not_impl(const Tensor& out, const Tensor& self, bool inplace) {
  bool direct = false;
  TensorIterator iter = bool_result_iterator("logical_not", out, self, Tensor(), inplace, direct);
  const ScalarType t = iter.dtype(1), o = iter.dtype(0);
  const cpu::VecKernels& vk = cpu::vec_kernels();
  if (t == ScalarType::Float && o == ScalarType::Bool) {
    cpu::vec_unary_loop<bool, float>(iter, vk.logical_not_f32_b8,
                                     [](float x) { return x == 0.0f; });
  } else if (t == ScalarType::Float && o == ScalarType::Float) {
    cpu::vec_unary_loop<float, float>(iter, vk.logical_not_f32,
                                      [](float x) { return x == 0.0f ? 1.0f : 0.0f; });
  } else if (t == ScalarType::Long && o == ScalarType::Bool) {
    cpu::vec_unary_loop<bool, int64_t>(iter, vk.logical_not_i64_b8,
                                       [](int64_t x) { return x == 0; });
  } else if (t == ScalarType::Long && o == ScalarType::Long) {
    cpu::vec_unary_loop<int64_t, int64_t>(iter, vk.logical_not_i64,
                                          [](int64_t x) -> int64_t { return x == 0 ? 1 : 0; });
  } else {
    dispatch_dtype<kEverything>(iter.common_dtype(), "logical_not", [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (direct) {
        const T one = convert<T>(true), zero = convert<T>(false);
        cpu_kernel(iter, [one, zero](T x) -> T { return convert<bool>(x) ? zero : one; });
      } else {
        cpu_kernel(iter, [](T x) -> bool { return !convert<bool>(x); });
      }
    });
  }
  return iter.output();
}
// int64 through the per-ISA loop (vec_kernels.h), others through
// cpu_kernel.
Tensor bitwise_not_impl(const Tensor& out, const Tensor& self, bool inplace) {
  TensorIterator iter = TensorIteratorConfig()
                            .name("bitwise_not")
                            .add_output(out)
                            .add_input(self)
                            .is_inplace(inplace)
                            .build();
  if (iter.dtype(0) == ScalarType::Long && iter.dtype(1) == ScalarType::Long) {
    cpu::vec_unary_loop<int64_t, int64_t>(iter, cpu::vec_kernels().bitwise_not_i64,
                                          [](int64_t x) -> int64_t { return ~x; });
    return iter.output();
  }
  dispatch_dtype<kIntegralTypes | kUnsignedTypes | kBoolType>(
      iter.common_dtype(), "bitwise_not", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          cpu_kernel(iter, [](bool x) -> bool { return !x; });
        } else {
          cpu_kernel(iter, [](T x) -> T { return static_cast<T>(~x); });
        }
      });
  return iter.output();
}
}  // namespace

Tensor logical_not(const Tensor& self) { return logical_not_impl(kNone, self, false); }
Tensor logical_not_(const Tensor& self) {
  logical_not_impl(self, self, true);
  return self;
}
Tensor logical_not_out(const Tensor& self, const Tensor& out) {
  logical_not_impl(out, self, false);
  return out;
}
Tensor bitwise_not(const Tensor& self) { return bitwise_not_impl(kNone, self, false); }
Tensor bitwise_not_(const Tensor& self) {
  bitwise_not_impl(self, self, true);
  return self;
}
Tensor bitwise_not_out(const Tensor& self, const Tensor& out) {
  bitwise_not_impl(out, self, false);
  return out;
}

// ---- relu / gelu ----------------------------------------------------------------------
namespace {
Tensor relu_impl(const Tensor& out, const Tensor& self, bool inplace) {
  check_unary_not_bool("relu", self.dtype());
  UnaryOptions opt;
  opt.simple = cpu::SimpleUnaryOp::Relu;
  return unary_op<kAllTypes | kReducedFloatTypes>("relu", out, self, inplace, opt, [](auto tag) {
    using T = typename decltype(tag)::type;
    // x where it is not below zero, so NaN and -0.0 pass, as PyTorch's
    // max(x, 0) gives them.
    return [](T x) -> T {
      using O = opmath_t<T>;
      return to_opmath(x) < O(0) ? from_opmath<T>(O(0)) : x;
    };
  });
}

Tensor gelu_impl(const Tensor& out, const Tensor& self, bool inplace,
                 std::string_view approximate) {
  const bool tanh_approx = approximate == "tanh";
  ST_CHECK(tanh_approx || approximate == "none",
           "approximate argument must be either none or tanh.");
  UnaryOptions opt;
  opt.vec_f32 = tanh_approx ? cpu::UnaryMath::GeluTanh : cpu::UnaryMath::GeluErf;
  return unary_op<kAllFloat>("GeluKernelImpl", out, self, inplace, opt, [tanh_approx](auto tag) {
    using T = typename decltype(tag)::type;
    return [tanh_approx](T x) -> T {
      const double v = static_cast<double>(to_opmath(x));
      double r;
      if (tanh_approx) {
        const double k = std::sqrt(2.0 / 3.14159265358979323846);
        r = 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
      } else {
        r = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
      }
      return convert<T>(r);
    };
  });
}
}  // namespace

Tensor relu(const Tensor& self) { return relu_impl(kNone, self, false); }
Tensor relu_(const Tensor& self) {
  relu_impl(self, self, true);
  return self;
}
Tensor gelu(const Tensor& self, std::string_view approximate) {
  return gelu_impl(kNone, self, false, approximate);
}
Tensor gelu_(const Tensor& self, std::string_view approximate) {
  gelu_impl(self, self, true, approximate);
  return self;
}
Tensor gelu_out(const Tensor& self, std::string_view approximate, const Tensor& out) {
  gelu_impl(out, self, false, approximate);
  return out;
}

// ---- isnan / isinf / nan_to_num --------------------------------------------------------
Tensor isnan(const Tensor& self) {
  UnaryOptions opt;
  opt.kernel_out = ScalarType::Bool;
  return unary_op<kEverything>("isnan", kNone, self, false, opt, [](auto tag) {
    using T = typename decltype(tag)::type;
    return [](T x) -> bool {
      if constexpr (is_complex_v<T>) {
        const auto z = to_opmath(x);
        return std::isnan(z.real()) || std::isnan(z.imag());
      } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
        return std::isnan(to_opmath(x));
      } else {
        return false;
      }
    };
  });
}

Tensor isinf(const Tensor& self) {
  UnaryOptions opt;
  opt.kernel_out = ScalarType::Bool;
  return unary_op<kEverything>("isinf", kNone, self, false, opt, [](auto tag) {
    using T = typename decltype(tag)::type;
    return [](T x) -> bool {
      if constexpr (is_complex_v<T>) {
        const auto z = to_opmath(x);
        return std::isinf(z.real()) || std::isinf(z.imag());
      } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
        return std::isinf(to_opmath(x));
      } else {
        return false;
      }
    };
  });
}

namespace {
Tensor nan_to_num_impl(const Tensor& out, const Tensor& self, bool inplace,
                       std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  UnaryOptions opt;
  // Strided operands go by blocks through it as well (vec_unary_f32).
  if (self.dtype() == ScalarType::Float) {
    const float nan_v = static_cast<float>(nan.value_or(0.0));
    const float pos_v = posinf ? static_cast<float>(*posinf) : std::numeric_limits<float>::max();
    const float neg_v = neginf ? static_cast<float>(*neginf) : std::numeric_limits<float>::lowest();
    opt.vec_f32_fn = [nan_v, pos_v, neg_v](float* o, const float* x, int64_t n) {
      cpu::vec_math().nan_to_num_f32(o, x, n, nan_v, pos_v, neg_v);
    };
  }
  return unary_op<kEverything>("nan_to_num", out, self, inplace, opt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T> || std::is_floating_point_v<opmath_t<T>>) {
      using R = real_value_t<opmath_t<T>>;
      // The limits of the stored type (Half's max, not float's).
      using Stored = std::conditional_t<is_complex_v<T>, R, T>;
      const R nan_v = static_cast<R>(nan.value_or(0.0));
      const R pos_v =
          posinf ? static_cast<R>(*posinf) : static_cast<R>(std::numeric_limits<Stored>::max());
      const R neg_v =
          neginf ? static_cast<R>(*neginf) : static_cast<R>(std::numeric_limits<Stored>::lowest());
      auto fix = [nan_v, pos_v, neg_v](R v) {
        if (std::isnan(v)) return nan_v;
        if (std::isinf(v)) return v > 0 ? pos_v : neg_v;
        return v;
      };
      return [fix](T x) -> T {
        if constexpr (is_complex_v<T>) {
          const auto z = to_opmath(x);
          return from_opmath<T>(opmath_t<T>(fix(z.real()), fix(z.imag())));
        } else {
          return from_opmath<T>(fix(to_opmath(x)));
        }
      };
    } else {
      return [](T x) -> T { return x; };
    }
  });
}

// An integer or bool tensor holds no NaN or infinity, so the operator is
// a copy: PyTorch's result is empty_like(self) (its layout kept) and its
// out= is resized and copied into (copy_ converts to out's dtype), without
// the elementwise engine's checks. The copy kernel moves whole rows.
bool copies_integers(const Tensor& self) {
  return torch::headeronly::isIntegralType(self.dtype(), /*includeBool=*/true);
}
}  // namespace

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  if (copies_integers(self)) return st::copy_(st::empty_like(self), self);
  return nan_to_num_impl(kNone, self, false, nan, posinf, neginf);
}
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  // In place on integers: the identity; PyTorch returns self untouched.
  if (copies_integers(self)) return self;
  nan_to_num_impl(self, self, true, nan, posinf, neginf);
  return self;
}
Tensor nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                      std::optional<double> neginf, const Tensor& out) {
  ST_CHECK(out.dtype() == self.dtype(),
           "nan_to_num: dtype of out: ", torch::headeronly::toString(out.dtype()),
           " should be same as input: ", torch::headeronly::toString(self.dtype()));
  if (copies_integers(self)) {
    resize_output(out, self.sizes());
    st::copy_(out, self);
    return out;
  }
  nan_to_num_impl(out, self, false, nan, posinf, neginf);
  return out;
}

}  // namespace st::native
