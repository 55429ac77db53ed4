// Binary pointwise kernels: add, sub, mul, div (modes), floor_divide,
// remainder, pow, maximum/minimum, bitwise and shift ops, logical ops.
// Scalar overloads wrap the Scalar as a 0-dim "wrapped number" tensor and
// go through the Tensor overload, so type promotion is PyTorch's.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <st/core/error.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "binary_checks.h"
#include "direct_output.h"
#include "pow_checks.h"

#include "cpu/fast_paths.h"
#include "cpu/vec_loops.h"
#include "cpu/vec_kernels.h"
#include "cpu/vec_math.h"

namespace st::native {

namespace {

struct BinaryOptions {
  bool int_to_float = false;
  std::optional<ScalarType> kernel_out;
  // The vector function that computes the operator on float32 (vec_math.h).
  std::optional<cpu::BinaryMath> vec_f32;
  // The per-ISA loop (vec_kernels.h) that computes the operator on int64.
  void (*vec_i64)(int64_t* out, const int64_t* a, const int64_t* b, int64_t n) = nullptr;
};

// Builds the iterator for out = op(a, b) (out undefined: allocate; inplace:
// out is a) and runs make(tag) -> lambda(T, T) -> R over the common dtype.
template <uint64_t kSet, typename Make>
Tensor binary_op(const char* name, const Tensor& out, const Tensor& a, const Tensor& b,
                 bool inplace, const BinaryOptions& opt, const Make& make) {
  // Two integer inputs of one dtype to a float32 vector function stay
  // integer in the iterator; the loop converts them
  // (vec_binary_through_float). In place, the iterator's check refuses the
  // float result as before.
  const bool int_through_float = opt.int_to_float && opt.vec_f32 && !inplace && !opt.kernel_out &&
                                 a.dtype() == b.dtype() &&
                                 cpu::converts_to_float_in_loop(a.dtype());
  TensorIteratorConfig cfg;
  cfg.name(name)
      .add_output(out)
      .add_input(a, !int_through_float)
      .add_input(b, !int_through_float)
      .is_inplace(inplace)
      .promote_integer_inputs_to_float(opt.int_to_float);
  if (int_through_float) {
    cfg.kernel_output_dtype(ScalarType::Float);
  } else if (opt.kernel_out) {
    cfg.kernel_output_dtype(*opt.kernel_out);
  }
  TensorIterator iter = cfg.build();
  if (int_through_float) {
    const auto fn = cpu::vec_math().binary_f32[static_cast<int>(*opt.vec_f32)];
    dispatch_dtype<cpu::kIntegerInputsToFloat>(a.dtype(), name, [&](auto tag) {
      cpu::vec_binary_through_float<typename decltype(tag)::type>(iter, fn);
    });
    return iter.output();
  }
  if constexpr ((kSet & dtype_bit(ScalarType::Float)) != 0) {
    if (opt.vec_f32 && iter.dtype(0) == ScalarType::Float && iter.dtype(1) == ScalarType::Float &&
        iter.dtype(2) == ScalarType::Float) {
      cpu::vec_binary_f32(iter, *opt.vec_f32, make(TypeTag<float>{}));
      return iter.output();
    }
  }
  if constexpr ((kSet & dtype_bit(ScalarType::Long)) != 0) {
    if (opt.vec_i64 != nullptr && iter.dtype(0) == ScalarType::Long &&
        iter.dtype(1) == ScalarType::Long && iter.dtype(2) == ScalarType::Long) {
      cpu::vec_binary_loop<int64_t, int64_t, int64_t>(iter, opt.vec_i64, make(TypeTag<int64_t>{}));
      return iter.output();
    }
  }
  dispatch_dtype<kSet>(iter.common_dtype(), name, [&](auto tag) { cpu_kernel(iter, make(tag)); });
  return iter.output();
}

Tensor wrap(const Scalar& s) { return wrapped_scalar_tensor(s); }

// ---- add / sub ---------------------------------------------------------------

// out = a + alpha * b (a - alpha * b) through the add loop of a float
// dtype T. The scalar kernel, for rows too short to gather, gives the same
// bits: the loop computes a + b for alpha 1 (as a + 1 * b is) and a +
// alpha * b otherwise, without contraction into a fused multiply-add.
// A stride-0 operand along the row goes to the add kernel's scalar form:
// b's value as alpha * b[0] added to each a[i], a's (alpha 1) as b[i] +
// a[0], the same sum with its operands swapped. An a with another alpha
// keeps the repeated-value buffer: its product first and the sum after, in
// two passes, took 79-112 us against 71-73 over [1024, 1] + 2.5 * [1,
// 1024] (alpha 1: 70 -> 50-57; b's value: 68-92 -> 47-59).
template <typename T, typename AddFn>
void vec_add(TensorIterator& iter, AddFn add, const Scalar& alpha, bool subtract) {
  const T al = subtract ? -scalar_as<T>(alpha) : scalar_as<T>(alpha);
  cpu::vec_binary_loop<T, T, T>(
      iter,
      [add, al](T* o, const T* x, const T* y, int64_t n) { add(o, x, y, al, n, false, false); },
      [al](T x, T y) -> T { return x + al * y; },
      [add, al](T* o, const T* x, const T* y, int64_t n, bool x_scalar) {
        if (!x_scalar) {
          add(o, x, y, al, n, true, false);
        } else if (al == T(1)) {
          add(o, y, x, T(1), n, true, false);
        } else {
          return false;
        }
        return true;
      });
}

Tensor add_impl(const char* name, const Tensor& out, const Tensor& a, const Tensor& b,
                const Scalar& alpha, bool inplace, bool subtract) {
  if (Tensor r = cpu::try_fast_binary(cpu::BinaryKind::Add, out, a, b, alpha, subtract, inplace);
      r.defined()) {
    return r;
  }
  constexpr uint64_t kSet =
      kAllTypes | kReducedFloatTypes | kComplexTypes | kBoolType | kUnsignedTypes;
  TensorIterator iter = TensorIteratorConfig()
                            .name(name)
                            .add_output(out)
                            .add_input(a)
                            .add_input(b)
                            .is_inplace(inplace)
                            .build();
  check_alpha(name, iter.common_dtype(), alpha);
  const ScalarType t = iter.common_dtype();
  if ((t == ScalarType::Float || t == ScalarType::Double) && iter.dtype(0) == t &&
      iter.dtype(1) == t && iter.dtype(2) == t) {
    // The per-ISA loop of the contiguous fast path (vec_kernels.h), here
    // over the iterator's rows: broadcast and strided operands.
    if (t == ScalarType::Float) {
      vec_add<float>(iter, cpu::vec_kernels().add_f32, alpha, subtract);
    } else {
      vec_add<double>(iter, cpu::vec_kernels().add_f64, alpha, subtract);
    }
    return iter.output();
  }
  dispatch_dtype<kSet>(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
      const bool al = alpha.toBool();
      cpu_kernel(iter, [al](bool x, bool y) -> bool { return x || (al && y); });
    } else {
      O al = scalar_as<O>(alpha);
      if (subtract) al = -al;
      if (al == O(1)) {
        cpu_kernel(iter, [](T x, T y) -> T { return from_opmath<T>(to_opmath(x) + to_opmath(y)); });
      } else {
        cpu_kernel(iter, [al](T x, T y) -> T {
          return from_opmath<T>(static_cast<O>(to_opmath(x) + al * to_opmath(y)));
        });
      }
    }
  });
  return iter.output();
}

// ---- mul / div -----------------------------------------------------------------

Tensor mul_impl(const Tensor& out, const Tensor& a, const Tensor& b, bool inplace) {
  if (Tensor r = cpu::try_fast_binary(cpu::BinaryKind::Mul, out, a, b, 1, false, inplace);
      r.defined()) {
    return r;
  }
  BinaryOptions opt;
  opt.vec_f32 = cpu::BinaryMath::Multiply;
  return binary_op<kAllTypes | kReducedFloatTypes | kComplexTypes | kBoolType | kUnsignedTypes>(
      "mul", out, a, b, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          return [](bool x, bool y) -> bool { return x && y; };
        } else {
          return [](T x, T y) -> T {
            return from_opmath<T>(static_cast<opmath_t<T>>(to_opmath(x) * to_opmath(y)));
          };
        }
      });
}

template <typename T>
T floor_div_float(T a, T b) {
  if (b == T(0)) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
  T floordiv;
  if (div != T(0)) {
    floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = std::copysign(T(0), a / b);
  }
  return floordiv;
}

template <typename T>
T floor_div_int(T a, T b) {
  if (b == 0) ST_ERROR("ZeroDivisionError");
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return static_cast<T>(T(0) - a);  // avoids INT_MIN / -1 trapping
    const T q = static_cast<T>(a / b);
    const T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return static_cast<T>(a / b);
  }
}

template <typename T>
T trunc_div_int(T a, T b) {
  if (b == 0) ST_ERROR("ZeroDivisionError");
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return static_cast<T>(T(0) - a);
  }
  return static_cast<T>(a / b);
}

enum class DivMode { True, Trunc, Floor };

DivMode parse_mode(std::optional<std::string_view> mode) {
  if (!mode.has_value()) return DivMode::True;
  if (*mode == "trunc") return DivMode::Trunc;
  if (*mode == "floor") return DivMode::Floor;
  ST_ERROR("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode,
           "'");
}

Tensor div_impl(const Tensor& out, const Tensor& a, const Tensor& b, bool inplace, DivMode mode) {
  if (mode == DivMode::True) {
    BinaryOptions opt;
    opt.int_to_float = true;
    opt.vec_f32 = cpu::BinaryMath::Divide;
    return binary_op<kAllFloat | kComplexTypes>("div_true", out, a, b, inplace, opt, [](auto tag) {
      using T = typename decltype(tag)::type;
      return [](T x, T y) -> T {
        return from_opmath<T>(static_cast<opmath_t<T>>(to_opmath(x) / to_opmath(y)));
      };
    });
  }
  const char* name = mode == DivMode::Trunc ? "div_trunc" : "div_floor";
  BinaryOptions opt;
  opt.vec_f32 =
      mode == DivMode::Floor ? cpu::BinaryMath::FloorDivide : cpu::BinaryMath::TruncDivide;
  return dispatch_constant<DivMode::Trunc, DivMode::Floor>(mode, [&](auto which) {
    constexpr bool trunc = decltype(which)::value == DivMode::Trunc;
    return binary_op<kAllTypes | kReducedFloatTypes>(name, out, a, b, inplace, opt, [](auto tag) {
      using T = typename decltype(tag)::type;
      using O = opmath_t<T>;
      return [](T x, T y) -> T {
        if constexpr (std::is_integral_v<T>) {
          return trunc ? trunc_div_int(x, y) : floor_div_int(x, y);
        } else {
          const O xo = to_opmath(x), yo = to_opmath(y);
          return from_opmath<T>(trunc ? std::trunc(xo / yo) : floor_div_float(xo, yo));
        }
      };
    });
  });
}

// ---- remainder ------------------------------------------------------------------

Tensor remainder_impl(const Tensor& out, const Tensor& a, const Tensor& b, bool inplace) {
  BinaryOptions opt;
  opt.vec_f32 = cpu::BinaryMath::Remainder;
  return binary_op<kAllTypes | kReducedFloatTypes>(
      "remainder", out, a, b, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T x, T y) -> T {
          if constexpr (std::is_integral_v<T>) {
            if (y == 0) ST_ERROR("ZeroDivisionError");
            if constexpr (std::is_signed_v<T>) {
              if (y == T(-1)) return T(0);
              T r = static_cast<T>(x % y);
              if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
              return r;
            } else {
              return static_cast<T>(x % y);
            }
          } else {
            using O = opmath_t<T>;
            const O xo = to_opmath(x), yo = to_opmath(y);
            O r = std::fmod(xo, yo);
            if (r != O(0) && ((yo < O(0)) != (r < O(0)))) r += yo;
            return from_opmath<T>(r);
          }
        };
      });
}

// ---- maximum / minimum ------------------------------------------------------------

Tensor minmax_impl(const char* name, const Tensor& out, const Tensor& a, const Tensor& b,
                   bool is_max) {
  ST_CHECK(!a.is_complex() && !b.is_complex(), name, " not implemented for complex tensors.");
  BinaryOptions opt;
  opt.vec_f32 = is_max ? cpu::BinaryMath::Maximum : cpu::BinaryMath::Minimum;
  opt.vec_i64 = cpu::vec_kernels().maxmin_i64[is_max ? 0 : 1];
  return dispatch_constant<true, false>(is_max, [&](auto which) {
    constexpr bool kMax = decltype(which)::value;
    return binary_op<kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes>(
        name, out, a, b, false, opt, [](auto tag) {
          using T = typename decltype(tag)::type;
          return [](T x, T y) -> T {
            using O = opmath_t<T>;
            const O xo = to_opmath(x), yo = to_opmath(y);
            if constexpr (std::is_floating_point_v<O>) {
              // (b's NaN when both are: the vector kernels' rule, one
              // comparison fewer; see maximum_f in vec_math_impl.inc)
              if (std::isnan(yo)) return y;
              if (std::isnan(xo)) return x;
            }
            if constexpr (kMax) {
              return xo < yo ? y : x;
            } else {
              return yo < xo ? y : x;
            }
          };
        });
  });
}

// ---- pow ------------------------------------------------------------------------------

template <typename T>
T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? T(1) : T(-1);
      return 0;
    }
  }
  T result = 1;
  // Unsigned arithmetic wraps like PyTorch's integer pow.
  using U = std::make_unsigned_t<T>;
  U r = 1, b = static_cast<U>(base);
  U e = static_cast<U>(exp);
  while (e) {
    if (e & 1) r = static_cast<U>(r * b);
    b = static_cast<U>(b * b);
    e >>= 1;
  }
  result = static_cast<T>(r);
  return result;
}

// float32 runs the vector function everywhere, one element at a time where
// the layout gives no row to run it on, so an element's result never
// depends on its layout.
float pow_f32(float x, float y) {
  float r;
  cpu::vec_math().binary_f32[static_cast<int>(cpu::BinaryMath::Pow)](&r, &x, &y, 1);
  return r;
}

Tensor pow_impl(const Tensor& out, const Tensor& base, const Tensor& exp, bool inplace) {
  BinaryOptions opt;
  opt.vec_f32 = cpu::BinaryMath::Pow;
  opt.vec_i64 = cpu::vec_kernels().pow_i64;
  return binary_op<kAllTypes | kReducedFloatTypes | kComplexTypes>(
      "pow", out, base, exp, inplace, opt, [](auto tag) {
        using T = typename decltype(tag)::type;
        return [](T x, T y) -> T {
          if constexpr (std::is_integral_v<T>) {
            return int_pow(x, y);
          } else if constexpr (std::is_same_v<T, float>) {
            return pow_f32(x, y);
          } else {
            using O = opmath_t<T>;
            return from_opmath<T>(static_cast<O>(std::pow(to_opmath(x), to_opmath(y))));
          }
        };
      });
}

// ---- bitwise ---------------------------------------------------------------------------

using BitOp = cpu::BitwiseOp;

// a OP b with PyTorch's shifts: a count outside [0, bits) gives 0 (left)
// or the sign fill (right), never a shift by the width or more. and/or/xor
// of bools promote to int and back, which keeps 0 and 1; shifts are not
// defined on bool (make_unsigned_t<bool> does not compile).
template <BitOp kOp, typename T>
T bitwise_scalar(T x, T y) {
  if constexpr (kOp == BitOp::And) {
    return static_cast<T>(x & y);
  } else if constexpr (kOp == BitOp::Or) {
    return static_cast<T>(x | y);
  } else if constexpr (kOp == BitOp::Xor) {
    return static_cast<T>(x ^ y);
  } else {
    constexpr int64_t bits = sizeof(T) * 8;
    using U = std::make_unsigned_t<T>;
    const bool oob = static_cast<int64_t>(y) < 0 || static_cast<int64_t>(y) >= bits;
    if constexpr (kOp == BitOp::Lshift) {
      if (oob) return T(0);
      return static_cast<T>(static_cast<U>(x) << static_cast<int>(y));
    } else {
      if (oob) {
        if constexpr (std::is_signed_v<T>) {
          return x < 0 ? T(-1) : T(0);
        } else {
          return T(0);
        }
      }
      return static_cast<T>(x >> static_cast<int>(y));
    }
  }
}

// int64 through the per-ISA loops (vec_kernels.h), bool and uint8 and/or/
// xor through the byte loops, other dtypes through cpu_kernel (the
// operator is a compile-time constant, so the compiler vectorizes them).
template <BitOp kOp, uint64_t kSet>
Tensor bitwise_kernel(const char* name, const Tensor& out, const Tensor& a, const Tensor& b,
                      bool inplace) {
  TensorIterator iter = TensorIteratorConfig()
                            .name(name)
                            .add_output(out)
                            .add_input(a)
                            .add_input(b)
                            .is_inplace(inplace)
                            .build();
  const ScalarType t = iter.common_dtype();
  const bool same = iter.dtype(0) == t && iter.dtype(1) == t && iter.dtype(2) == t;
  if (same && t == ScalarType::Long) {
    cpu::vec_binary_loop<int64_t, int64_t, int64_t>(
        iter, cpu::vec_kernels().bitwise_i64[static_cast<int>(kOp)],
        [](int64_t x, int64_t y) { return bitwise_scalar<kOp>(x, y); });
    return iter.output();
  }
  if constexpr (kOp != BitOp::Lshift && kOp != BitOp::Rshift) {
    const auto bytes = cpu::vec_kernels().bitwise_u8[static_cast<int>(kOp)];
    if (same && t == ScalarType::Byte) {
      cpu::vec_binary_loop<uint8_t, uint8_t, uint8_t>(
          iter, bytes, [](uint8_t x, uint8_t y) { return bitwise_scalar<kOp>(x, y); });
      return iter.output();
    }
    if (same && t == ScalarType::Bool) {
      // bool bytes are 0 or 1, which and/or/xor keep.
      const auto fn = [bytes](bool* o, const bool* x, const bool* y, int64_t n) {
        bytes(reinterpret_cast<uint8_t*>(o), reinterpret_cast<const uint8_t*>(x),
              reinterpret_cast<const uint8_t*>(y), n);
      };
      cpu::vec_binary_loop<bool, bool, bool>(
          iter, fn, [](bool x, bool y) { return bitwise_scalar<kOp>(x, y); });
      return iter.output();
    }
  }
  dispatch_dtype<kSet>(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cpu_kernel(iter, [](T x, T y) -> T { return bitwise_scalar<kOp>(x, y); });
  });
  return iter.output();
}

Tensor bitwise_impl(const char* name, BitOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                    bool inplace) {
  if (op == BitOp::Lshift || op == BitOp::Rshift) {
    return dispatch_constant<BitOp::Lshift, BitOp::Rshift>(op, [&](auto which) {
      return bitwise_kernel<decltype(which)::value, kIntegralTypes | kUnsignedTypes>(name, out, a,
                                                                                     b, inplace);
    });
  }
  return dispatch_constant<BitOp::And, BitOp::Or, BitOp::Xor>(op, [&](auto which) {
    return bitwise_kernel<decltype(which)::value, kIntegralTypes | kUnsignedTypes | kBoolType>(
        name, out, a, b, inplace);
  });
}

// ---- logical ----------------------------------------------------------------------------

using LogicalOp = cpu::LogicalOp;

template <LogicalOp kOp>
bool logical_scalar(bool x, bool y) {
  if constexpr (kOp == LogicalOp::And) {
    return x && y;
  } else if constexpr (kOp == LogicalOp::Or) {
    return x || y;
  } else {
    return x != y;
  }
}

// float32 and int64 inputs through the per-ISA loops (vec_kernels.h),
// writing bool or, for an out= or in-place output of the inputs' dtype,
// that dtype in one pass (as the comparisons do); others through
// cpu_kernel into Bool, converted by the iterator when the output is not.
template <LogicalOp kOp>
Tensor logical_kernel(const char* name, const Tensor& out, const Tensor& a, const Tensor& b,
                      bool inplace) {
  bool direct = false;
  TensorIterator iter = bool_result_iterator(name, out, a, b, inplace, direct);
  const ScalarType t = iter.common_dtype();
  const int k = static_cast<int>(kOp);
  const cpu::VecKernels& vk = cpu::vec_kernels();
  if (iter.dtype(1) == t && iter.dtype(2) == t) {
    const ScalarType o = iter.dtype(0);
    if (t == ScalarType::Float && o == ScalarType::Bool) {
      cpu::vec_binary_loop<bool, float, float>(iter, vk.logical_f32_b8[k], [](float x, float y) {
        return logical_scalar<kOp>(x != 0.0f, y != 0.0f);
      });
      return iter.output();
    }
    if (t == ScalarType::Float && o == ScalarType::Float) {
      cpu::vec_binary_loop<float, float, float>(iter, vk.logical_f32[k], [](float x, float y) {
        return logical_scalar<kOp>(x != 0.0f, y != 0.0f) ? 1.0f : 0.0f;
      });
      return iter.output();
    }
    if (t == ScalarType::Long && o == ScalarType::Bool) {
      cpu::vec_binary_loop<bool, int64_t, int64_t>(
          iter, vk.logical_i64_b8[k],
          [](int64_t x, int64_t y) { return logical_scalar<kOp>(x != 0, y != 0); });
      return iter.output();
    }
    if (t == ScalarType::Long && o == ScalarType::Long) {
      cpu::vec_binary_loop<int64_t, int64_t, int64_t>(
          iter, vk.logical_i64[k], [](int64_t x, int64_t y) -> int64_t {
            return logical_scalar<kOp>(x != 0, y != 0) ? 1 : 0;
          });
      return iter.output();
    }
  }
  dispatch_dtype<kEverything>(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (direct) {
      const T one = convert<T>(true), zero = convert<T>(false);
      cpu_kernel(iter, [one, zero](T x, T y) -> T {
        return logical_scalar<kOp>(convert<bool>(x), convert<bool>(y)) ? one : zero;
      });
    } else {
      cpu_kernel(iter, [](T x, T y) -> bool {
        return logical_scalar<kOp>(convert<bool>(x), convert<bool>(y));
      });
    }
  });
  return iter.output();
}

Tensor logical_impl(const char* name, LogicalOp op, const Tensor& out, const Tensor& a,
                    const Tensor& b, bool inplace) {
  return dispatch_constant<LogicalOp::And, LogicalOp::Or, LogicalOp::Xor>(op, [&](auto which) {
    return logical_kernel<decltype(which)::value>(name, out, a, b, inplace);
  });
}

const Tensor kNone;

}  // namespace

void check_alpha(const char* op, ScalarType common, const Scalar& alpha) {
  if (alpha.isBoolean()) {
    ST_CHECK(common == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  } else if (torch::headeronly::isIntegralType(common, true)) {
    ST_CHECK(alpha.isIntegral(true),
             "For integral input tensors, argument alpha must not be a floating point number.");
  } else if (!torch::headeronly::isComplexType(common)) {
    ST_CHECK(!alpha.isComplex(), op, ": complex alpha requires a complex result type, got ",
             torch::headeronly::toString(common));
  }
}

void check_sub(const Tensor& a, const Tensor& b) {
  ST_CHECK(!(a.dtype() == ScalarType::Bool && b.dtype() == ScalarType::Bool),
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
           "or `logical_xor()` operator instead.");
  ST_CHECK(a.dtype() != ScalarType::Bool && b.dtype() != ScalarType::Bool,
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
           "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

// ---- add ----------------------------------------------------------------------------
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_impl("add", kNone, self, other, alpha, false, false);
}
Tensor add_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_impl("add_", self, self, other, alpha, true, false);
  return self;
}
Tensor add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  add_impl("add", out, self, other, alpha, false, false);
  return out;
}
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return st::add(self, wrap(other), alpha);
}
Tensor add_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return st::add_(self, wrap(other), alpha);
}
Tensor add_out(const Tensor& self, const Scalar& other, const Scalar& alpha, const Tensor& out) {
  return st::add_outf(self, wrap(other), alpha, out);
}

// ---- sub ----------------------------------------------------------------------------
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  return add_impl("sub", kNone, self, other, alpha, false, true);
}
Tensor sub_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  add_impl("sub_", self, self, other, alpha, true, true);
  return self;
}
Tensor sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  check_sub(self, other);
  add_impl("sub", out, self, other, alpha, false, true);
  return out;
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return st::sub(self, wrap(other), alpha);
}
Tensor sub_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return st::sub_(self, wrap(other), alpha);
}
Tensor sub_out(const Tensor& self, const Scalar& other, const Scalar& alpha, const Tensor& out) {
  return st::sub_outf(self, wrap(other), alpha, out);
}

// ---- mul ----------------------------------------------------------------------------
Tensor mul(const Tensor& self, const Tensor& other) { return mul_impl(kNone, self, other, false); }
Tensor mul_(const Tensor& self, const Tensor& other) {
  mul_impl(self, self, other, true);
  return self;
}
Tensor mul_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  mul_impl(out, self, other, false);
  return out;
}
Tensor mul(const Tensor& self, const Scalar& other) { return st::mul(self, wrap(other)); }
Tensor mul_(const Tensor& self, const Scalar& other) { return st::mul_(self, wrap(other)); }
Tensor mul_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return st::mul_outf(self, wrap(other), out);
}

// ---- div ----------------------------------------------------------------------------
Tensor div(const Tensor& self, const Tensor& other) {
  return div_impl(kNone, self, other, false, DivMode::True);
}
Tensor div_(const Tensor& self, const Tensor& other) {
  div_impl(self, self, other, true, DivMode::True);
  return self;
}
Tensor div_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  div_impl(out, self, other, false, DivMode::True);
  return out;
}
Tensor div(const Tensor& self, const Scalar& other) { return st::div(self, wrap(other)); }
Tensor div_(const Tensor& self, const Scalar& other) { return st::div_(self, wrap(other)); }
Tensor div_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return st::div_outf(self, wrap(other), out);
}
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return div_impl(kNone, self, other, false, parse_mode(rounding_mode));
}
Tensor div_(const Tensor& self, const Tensor& other,
            std::optional<std::string_view> rounding_mode) {
  div_impl(self, self, other, true, parse_mode(rounding_mode));
  return self;
}
Tensor div_out(const Tensor& self, const Tensor& other,
               std::optional<std::string_view> rounding_mode, const Tensor& out) {
  div_impl(out, self, other, false, parse_mode(rounding_mode));
  return out;
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return st::div(self, wrap(other), rounding_mode);
}
Tensor div_(const Tensor& self, const Scalar& other,
            std::optional<std::string_view> rounding_mode) {
  return st::div_(self, wrap(other), rounding_mode);
}
Tensor div_out(const Tensor& self, const Scalar& other,
               std::optional<std::string_view> rounding_mode, const Tensor& out) {
  return st::div_outf(self, wrap(other), rounding_mode, out);
}

// ---- floor_divide / remainder -------------------------------------------------------
Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return div_impl(kNone, self, other, false, DivMode::Floor);
}
Tensor floor_divide_(const Tensor& self, const Tensor& other) {
  div_impl(self, self, other, true, DivMode::Floor);
  return self;
}
Tensor floor_divide_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  div_impl(out, self, other, false, DivMode::Floor);
  return out;
}
Tensor floor_divide(const Tensor& self, const Scalar& other) {
  return st::floor_divide(self, wrap(other));
}
Tensor floor_divide_(const Tensor& self, const Scalar& other) {
  return st::floor_divide_(self, wrap(other));
}
Tensor floor_divide_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return st::floor_divide_outf(self, wrap(other), out);
}

Tensor remainder(const Tensor& self, const Tensor& other) {
  return remainder_impl(kNone, self, other, false);
}
Tensor remainder_(const Tensor& self, const Tensor& other) {
  remainder_impl(self, self, other, true);
  return self;
}
Tensor remainder_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  remainder_impl(out, self, other, false);
  return out;
}
Tensor remainder(const Tensor& self, const Scalar& other) {
  return st::remainder(self, wrap(other));
}
Tensor remainder_(const Tensor& self, const Scalar& other) {
  return st::remainder_(self, wrap(other));
}
Tensor remainder_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return st::remainder_outf(self, wrap(other), out);
}
Tensor remainder(const Scalar& self, const Tensor& other) {
  return st::remainder(wrap(self), other);
}
Tensor remainder_out(const Scalar& self, const Tensor& other, const Tensor& out) {
  return st::remainder_outf(wrap(self), other, out);
}

// ---- maximum / minimum --------------------------------------------------------------
Tensor maximum(const Tensor& self, const Tensor& other) {
  return minmax_impl("maximum", kNone, self, other, true);
}
Tensor maximum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  minmax_impl("maximum", out, self, other, true);
  return out;
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  return minmax_impl("minimum", kNone, self, other, false);
}
Tensor minimum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  minmax_impl("minimum", out, self, other, false);
  return out;
}
Tensor max(const Tensor& self, const Tensor& other) { return st::maximum(self, other); }
Tensor max_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return st::maximum_outf(self, other, out);
}
Tensor min(const Tensor& self, const Tensor& other) { return st::minimum(self, other); }
Tensor min_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return st::minimum_outf(self, other, out);
}

// ---- pow ----------------------------------------------------------------------------
Tensor pow(const Tensor& self, const Tensor& exponent) {
  return pow_impl(kNone, self, exponent, false);
}
Tensor pow_out(const Tensor& self, const Tensor& exponent, const Tensor& out) {
  pow_impl(out, self, exponent, false);
  return out;
}
Tensor pow_(const Tensor& self, const Tensor& exponent) {
  pow_impl(self, self, exponent, true);
  return self;
}
Tensor pow(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  return pow_impl(kNone, self, wrap(exponent), false);
}
Tensor pow_out(const Tensor& self, const Scalar& exponent, const Tensor& out) {
  check_int_pow_scalar(self, exponent);
  pow_impl(out, self, wrap(exponent), false);
  return out;
}
Tensor pow_(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  pow_impl(self, self, wrap(exponent), true);
  return self;
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return pow_impl(kNone, wrap(self), exponent, false);
}
Tensor pow_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  pow_impl(out, wrap(self), exponent, false);
  return out;
}

// ---- bitwise ------------------------------------------------------------------------
#define ST_BITWISE_FAMILY(NAME, OP)                                                            \
  Tensor NAME(const Tensor& self, const Tensor& other) {                                       \
    return bitwise_impl(#NAME, OP, kNone, self, other, false);                                 \
  }                                                                                            \
  Tensor NAME##_(const Tensor& self, const Tensor& other) {                                    \
    bitwise_impl(#NAME "_", OP, self, self, other, true);                                      \
    return self;                                                                               \
  }                                                                                            \
  Tensor NAME##_out(const Tensor& self, const Tensor& other, const Tensor& out) {              \
    bitwise_impl(#NAME, OP, out, self, other, false);                                          \
    return out;                                                                                \
  }                                                                                            \
  Tensor NAME(const Tensor& self, const Scalar& other) { return st::NAME(self, wrap(other)); } \
  Tensor NAME(const Scalar& self, const Tensor& other) { return st::NAME(wrap(self), other); } \
  Tensor NAME##_(const Tensor& self, const Scalar& other) {                                    \
    return st::NAME##_(self, wrap(other));                                                     \
  }                                                                                            \
  Tensor NAME##_out(const Tensor& self, const Scalar& other, const Tensor& out) {              \
    return st::NAME##_outf(self, wrap(other), out);                                            \
  }

ST_BITWISE_FAMILY(bitwise_and, BitOp::And)
ST_BITWISE_FAMILY(bitwise_or, BitOp::Or)
ST_BITWISE_FAMILY(bitwise_xor, BitOp::Xor)
ST_BITWISE_FAMILY(bitwise_left_shift, BitOp::Lshift)
ST_BITWISE_FAMILY(bitwise_right_shift, BitOp::Rshift)
#undef ST_BITWISE_FAMILY

// ---- logical ------------------------------------------------------------------------
#define ST_LOGICAL_FAMILY(NAME, OP)                                               \
  Tensor NAME(const Tensor& self, const Tensor& other) {                          \
    return logical_impl(#NAME, OP, kNone, self, other, false);                    \
  }                                                                               \
  Tensor NAME##_(const Tensor& self, const Tensor& other) {                       \
    logical_impl(#NAME "_", OP, self, self, other, true);                         \
    return self;                                                                  \
  }                                                                               \
  Tensor NAME##_out(const Tensor& self, const Tensor& other, const Tensor& out) { \
    logical_impl(#NAME, OP, out, self, other, false);                             \
    return out;                                                                   \
  }

ST_LOGICAL_FAMILY(logical_and, LogicalOp::And)
ST_LOGICAL_FAMILY(logical_or, LogicalOp::Or)
ST_LOGICAL_FAMILY(logical_xor, LogicalOp::Xor)
#undef ST_LOGICAL_FAMILY

void check_int_pow_scalar(const Tensor& base, const Scalar& exp) {
  if (torch::headeronly::isIntegralType(base.dtype(), true) && exp.isIntegral(true)) {
    ST_CHECK(exp.toLong() >= 0, "Integers to negative integer powers are not allowed.");
  }
}

}  // namespace st::native
