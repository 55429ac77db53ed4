// Comparisons (eq, ne, lt, le, gt, ge), where, masked_fill, clamp.
#include <algorithm>
#include <cmath>

#include <st/core/error.h>
#include <st/core/result_type.h>
#include <st/core/warning.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "compare_checks.h"
#include "direct_output.h"
#include "cpu/vec_loops.h"
#include "cpu/vec_kernels.h"

namespace st::native {

namespace {

const Tensor kNone;

using Cmp = cpu::CompareOp;

// The vec_math.h comparison of c: BinaryMath lists the comparisons in
// CompareOp's order, so one offset maps them all.
constexpr cpu::BinaryMath compare_math(Cmp c) {
  return static_cast<cpu::BinaryMath>(static_cast<int>(cpu::BinaryMath::Eq) + static_cast<int>(c));
}
static_assert(compare_math(Cmp::Eq) == cpu::BinaryMath::Eq &&
                  compare_math(Cmp::Ne) == cpu::BinaryMath::Ne &&
                  compare_math(Cmp::Lt) == cpu::BinaryMath::Lt &&
                  compare_math(Cmp::Le) == cpu::BinaryMath::Le &&
                  compare_math(Cmp::Gt) == cpu::BinaryMath::Gt &&
                  compare_math(Cmp::Ge) == cpu::BinaryMath::Ge,
              "BinaryMath's comparisons are in CompareOp order");

template <Cmp c, typename O>
bool compare(O a, O b) {
  if constexpr (c == Cmp::Eq) {
    return a == b;
  } else if constexpr (c == Cmp::Ne) {
    return a != b;
  } else if constexpr (is_std_complex<O>::value) {
    return false;  // unreachable: ordered comparisons reject complex first
  } else if constexpr (c == Cmp::Lt) {
    return a < b;
  } else if constexpr (c == Cmp::Le) {
    return a <= b;
  } else if constexpr (c == Cmp::Gt) {
    return a > b;
  } else {
    return a >= b;
  }
}

// The kernel writes the output's dtype itself (1 or 0 of it) when that is
// the inputs' common dtype, as for an in-place comparison on a float
// tensor: one pass instead of a Bool block converted into the output (Note
// [Converting outputs by blocks]). Other outputs take the Bool kernel.
template <typename T, Cmp c>
void compare_kernel(TensorIterator& iter, bool direct) {
  if (!direct) {
    // Bool results: the per-ISA loops (vec_kernels.h) for float32 and
    // int64, the generic loop for the other dtypes.
    if constexpr (std::is_same_v<T, float>) {
      cpu::vec_binary_loop<bool, float, float>(
          iter, cpu::vec_kernels().compare_f32_b8[static_cast<int>(c)],
          [](float x, float y) -> bool { return compare<c>(x, y); });
    } else if constexpr (std::is_same_v<T, int64_t>) {
      cpu::vec_binary_loop<bool, int64_t, int64_t>(
          iter, cpu::vec_kernels().compare_i64_b8[static_cast<int>(c)],
          [](int64_t x, int64_t y) -> bool { return compare<c>(x, y); });
    } else {
      cpu_kernel(iter, [](T x, T y) -> bool { return compare<c>(to_opmath(x), to_opmath(y)); });
    }
  } else if constexpr (std::is_same_v<T, float>) {
    // The per-ISA vector loops (vec_math.h).
    cpu::vec_binary_f32(iter, compare_math(c),
                        [](float x, float y) -> float { return compare<c>(x, y) ? 1.0f : 0.0f; });
  } else if constexpr (std::is_same_v<T, int64_t>) {
    // The per-ISA loops (vec_kernels.h): SSE2 has no 64-bit compare, so
    // the baseline loop is scalar.
    cpu::vec_binary_loop<int64_t, int64_t, int64_t>(
        iter, cpu::vec_kernels().compare_i64[static_cast<int>(c)],
        [](int64_t x, int64_t y) -> int64_t { return static_cast<int64_t>(compare<c>(x, y)); });
  } else if constexpr (std::is_integral_v<T>) {
    // A conversion of the bool, not a choice: no branch per element
    // (SSE2 has no 64-bit integer compare to vectorize a select with).
    cpu_kernel(iter, [](T x, T y) -> T { return static_cast<T>(compare<c>(x, y)); });
  } else {
    const T one = convert<T>(true), zero = convert<T>(false);
    cpu_kernel(iter, [one, zero](T x, T y) -> T {
      return compare<c>(to_opmath(x), to_opmath(y)) ? one : zero;
    });
  }
}

Tensor compare_impl(const char* name, Cmp c, const Tensor& out, const Tensor& a, const Tensor& b,
                    bool inplace) {
  bool direct = false;
  TensorIterator iter = bool_result_iterator(name, out, a, b, inplace, direct);
  if (c == Cmp::Eq || c == Cmp::Ne) {
    dispatch_dtype<kEverything>(iter.common_dtype(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      dispatch_constant<Cmp::Eq, Cmp::Ne>(
          c, [&](auto op) { compare_kernel<T, decltype(op)::value>(iter, direct); });
    });
  } else {
    dispatch_dtype<kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes>(
        iter.common_dtype(), name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          dispatch_constant<Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge>(
              c, [&](auto op) { compare_kernel<T, decltype(op)::value>(iter, direct); });
        });
  }
  return iter.output();
}

}  // namespace

#define ST_COMPARE_FAMILY(NAME, CMP)                                              \
  Tensor NAME(const Tensor& self, const Tensor& other) {                          \
    return compare_impl(#NAME "_cpu", CMP, kNone, self, other, false);            \
  }                                                                               \
  Tensor NAME##_out(const Tensor& self, const Tensor& other, const Tensor& out) { \
    compare_impl(#NAME "_cpu", CMP, out, self, other, false);                     \
    return out;                                                                   \
  }                                                                               \
  Tensor NAME##_(const Tensor& self, const Tensor& other) {                       \
    compare_impl(#NAME "_cpu", CMP, self, self, other, true);                     \
    return self;                                                                  \
  }                                                                               \
  Tensor NAME(const Tensor& self, const Scalar& other) {                          \
    return st::NAME(self, wrapped_scalar_tensor(other));                          \
  }                                                                               \
  Tensor NAME##_out(const Tensor& self, const Scalar& other, const Tensor& out) { \
    return st::NAME##_outf(self, wrapped_scalar_tensor(other), out);              \
  }                                                                               \
  Tensor NAME##_(const Tensor& self, const Scalar& other) {                       \
    return st::NAME##_(self, wrapped_scalar_tensor(other));                       \
  }

ST_COMPARE_FAMILY(eq, Cmp::Eq)
ST_COMPARE_FAMILY(ne, Cmp::Ne)
ST_COMPARE_FAMILY(lt, Cmp::Lt)
ST_COMPARE_FAMILY(le, Cmp::Le)
ST_COMPARE_FAMILY(gt, Cmp::Gt)
ST_COMPARE_FAMILY(ge, Cmp::Ge)
#undef ST_COMPARE_FAMILY

// ---- where ---------------------------------------------------------------------------

namespace {
Tensor where_impl(const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other) {
  check_where_condition(condition);
  TensorIteratorConfig cfg;
  cfg.name("where_cpu")
      .add_output(out)
      .add_input(condition, /*promote=*/false)
      .add_input(self)
      .add_input(other);
  TensorIterator iter = cfg.build();
  dispatch_dtype<kEverything>(iter.common_dtype(), "where_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    cpu_kernel(iter, [](bool c, T a, T b) -> T { return select_item(c, a, b); });
  });
  return iter.output();
}
}  // namespace

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_impl(kNone, condition, self, other);
}
Tensor where_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                 const Tensor& out) {
  // The out= must have the promoted dtype itself (PyTorch does not cast).
  const ScalarType want = st::result_type(self, other);
  ST_CHECK(out.dtype() == want, "where: Expected out type to be ",
           torch::headeronly::toString(want), " but got ",
           torch::headeronly::toString(out.dtype()));
  where_impl(out, condition, self, other);
  return out;
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return st::where(condition, wrapped_scalar_tensor(self), other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return st::where(condition, self, wrapped_scalar_tensor(other));
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return st::where(condition, wrapped_scalar_tensor(self), wrapped_scalar_tensor(other));
}

// ---- masked_fill ------------------------------------------------------------------------

namespace {
// out = self where mask is false, value where it is true: in place (out is
// self) or into a fresh out of the broadcast shape, in one pass.
void masked_fill_into(const Tensor& out, const Tensor& self, const Tensor& mask,
                      const Scalar& value) {
  const bool in_place = out.is_same(self);
  TensorIterator iter = TensorIteratorConfig()
                            .name("masked_fill")
                            .check_mem_overlap(false)
                            .add_output(out)
                            .add_input(self, false)
                            .add_input(mask, false)
                            .promote_inputs_to_common_dtype(false)
                            .kernel_output_dtype(self.dtype())
                            .is_inplace(in_place)
                            .build();
  dispatch_dtype<kEverything>(self.dtype(), "masked_fill", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = scalar_as<T>(value);
    cpu_kernel(iter, [v](T a, bool m) -> T { return select_item(m, v, a); });
  });
}
}  // namespace

Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check_masked_fill_mask(mask);
  // An expanded self is written (deprecated in PyTorch, which warns but
  // allows it); a mask sharing part of self's memory is refused.
  if (has_internal_overlap(self)) {
    ST_WARN(
        "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor "
        "before performing this operation. This also applies to advanced indexing e.g. "
        "tensor[mask] = scalar");
  }
  assert_no_partial_overlap(self, mask, "masked_fill_");
  masked_fill_into(self, self, mask, value);
  return self;
}

Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_masked_fill_value(value);
  return native::masked_fill_(self, mask, item_scalar(value));
}

namespace {
Tensor expanded_clone(const Tensor& self, const Tensor& mask) {
  const std::vector<int64_t> shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = st::empty(shape, self.dtype(), std::nullopt, self.device());
  st::copy_(result, self);
  return result;
}
}  // namespace

// On the CPU the result (contiguous, of the broadcast shape, as PyTorch's
// clone) is written in one pass from self; other devices clone and fill.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  if (self.is_cpu() && mask.is_cpu()) {
    check_masked_fill_mask(mask);
    const std::vector<int64_t> shape = infer_size(self.sizes(), mask.sizes());
    Tensor result = st::empty(shape, self.dtype(), std::nullopt, self.device());
    masked_fill_into(result, self, mask, value);
    return result;
  }
  Tensor result = expanded_clone(self, mask);
  st::masked_fill_(result, mask, value);
  return result;
}
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  if (self.is_cpu() && mask.is_cpu()) {
    check_masked_fill_value(value);
    return st::native::masked_fill(self, mask, item_scalar(value));
  }
  Tensor result = expanded_clone(self, mask);
  st::masked_fill_(result, mask, value);
  return result;
}

// ---- clamp -------------------------------------------------------------------------------

namespace {

Tensor clamp_tensor_impl(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                         const std::optional<Tensor>& max, bool inplace) {
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  check_clamp_bounds(has_min, has_max);
  ST_CHECK(!self.is_complex(), "clamp is not supported for complex types");
  TensorIteratorConfig cfg;
  cfg.name("clamp").add_output(out).add_input(self).is_inplace(inplace);
  if (has_min) cfg.add_input(*min);
  if (has_max) cfg.add_input(*max);
  TensorIterator iter = cfg.build();
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kBoolType>(
      iter.common_dtype(), "clamp", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using O = opmath_t<T>;
        // NaN in x or in a bound propagates, as PyTorch's clamp.
        auto lower = [](O v, O lo) -> O {
          if constexpr (std::is_floating_point_v<O>) {
            if (std::isnan(v) || std::isnan(lo)) return v + lo;
          }
          return v < lo ? lo : v;
        };
        auto upper = [](O v, O hi) -> O {
          if constexpr (std::is_floating_point_v<O>) {
            if (std::isnan(v) || std::isnan(hi)) return v + hi;
          }
          return v > hi ? hi : v;
        };
        if (has_min && has_max) {
          cpu_kernel(iter, [lower, upper](T x, T lo, T hi) -> T {
            return from_opmath<T>(upper(lower(to_opmath(x), to_opmath(lo)), to_opmath(hi)));
          });
        } else if (has_min) {
          cpu_kernel(iter, [lower](T x, T lo) -> T {
            return from_opmath<T>(lower(to_opmath(x), to_opmath(lo)));
          });
        } else {
          cpu_kernel(iter, [upper](T x, T hi) -> T {
            return from_opmath<T>(upper(to_opmath(x), to_opmath(hi)));
          });
        }
      });
  return iter.output();
}

std::optional<Tensor> wrap_opt(const std::optional<Scalar>& s) {
  if (!s.has_value()) return std::nullopt;
  return wrapped_scalar_tensor(*s);
}

}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max) {
  return clamp_tensor_impl(kNone, self, wrap_opt(min), wrap_opt(max), false);
}
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
             const std::optional<Tensor>& max) {
  return clamp_tensor_impl(kNone, self, min, max, false);
}
Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min,
              const std::optional<Scalar>& max) {
  clamp_tensor_impl(self, self, wrap_opt(min), wrap_opt(max), true);
  return self;
}
Tensor clamp_(const Tensor& self, const std::optional<Tensor>& min,
              const std::optional<Tensor>& max) {
  clamp_tensor_impl(self, self, min, max, true);
  return self;
}
Tensor clamp_out(const Tensor& self, const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max, const Tensor& out) {
  clamp_tensor_impl(out, self, wrap_opt(min), wrap_opt(max), false);
  return out;
}
Tensor clamp_out(const Tensor& self, const std::optional<Tensor>& min,
                 const std::optional<Tensor>& max, const Tensor& out) {
  clamp_tensor_impl(out, self, min, max, false);
  return out;
}

// ---- the checks the CUDA kernels share (compare_checks.h) ---------------------------------

void check_where_condition(const Tensor& condition) {
  ST_CHECK(condition.dtype() == ScalarType::Bool,
           "where expected condition to be a boolean tensor, but got a tensor with dtype ",
           torch::headeronly::toString(condition.dtype()));
}

void check_masked_fill_mask(const Tensor& mask) {
  ST_CHECK(mask.dtype() == ScalarType::Bool,
           "masked_fill_ only supports boolean masks, but got mask with dtype ",
           torch::headeronly::toString(mask.dtype()));
}

void check_masked_fill_value(const Tensor& value) {
  ST_CHECK(value.dim() == 0,
           "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
}

void check_clamp_bounds(bool has_min, bool has_max) {
  ST_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
}

}  // namespace st::native
