// The CUDA kernels of native_functions.yaml that are written by hand: each
// is the `CUDA:` kernel of its entry, declared by codegen in
// st/generated/native_cuda_kernels.h (so a signature that drifts from its
// schema fails to compile) and registered by the generated
// register_CUDA.cpp (Note [CUDA kernels in native_functions.yaml] in
// tools/codegen/gen_native.py). They check their arguments with the CPU
// kernels' checks (core/src/native/*_checks.h) and run on the backend's
// operations (cuda_ops.h).
#include <string_view>

#include <st/core/error.h>
#include <st/generated/functions.h>
#include <st/generated/native_cuda_kernels.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "native/cumsum_checks.h"
#include "native/gemm_out_checks.h"
#include "native/indexing_out_checks.h"
#include "native/pow_checks.h"
#include "native/reduce_out_checks.h"
#include "native/sort_checks.h"

namespace st::cuda::kernels {
// Defined in kernels/binary_*.cu (the kernels below call them by hand).
BinaryEntry binary_float_div;
BinaryEntry binary_divmod_div_trunc;
BinaryEntry binary_divmod_div_floor;
BinaryEntry binary_nonbool_pow;
UnaryEntry unary_floating_gelu;
UnaryEntry unary_floating_gelu_tanh;
}  // namespace st::cuda::kernels

namespace st::native {
namespace {

namespace ops = st::cuda::ops;
namespace kernels = st::cuda::kernels;
using st::cuda::kernels::Reduce;

// out resized to the result and filled from it (the CUDA copy kernel
// converts the dtype).
Tensor into_out(const Tensor& computed, const Tensor& out, const char* name) {
  ST_CHECK(out.device() == computed.device(), name, ": expected out on ", computed.device(),
           " but got ", out.device());
  resize_output(out, computed.sizes());
  ops::copy_(out, computed, false);
  return out;
}

// An indexing result's out=: the CPU's checks, then resize and copy.
Tensor indexing_out(const Tensor& computed, const Tensor& out, const char* name) {
  check_indexing_out(computed, out, name);
  return into_out(computed, out, name);
}

Tensor wrap(const Scalar& s) { return wrapped_scalar_tensor(s); }

std::optional<Tensor> wrap_opt(const std::optional<Scalar>& s) {
  if (!s) return std::nullopt;
  return wrap(*s);
}

// div with a rounding mode and floor_divide (div's floor mode) share the
// entry points of true division (binary_float.cu) and of the rounding
// divisions (binary_divmod.cu); the names are the CPU kernels', so the
// errors read the same.
Tensor div_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode,
                const std::optional<Tensor>& out) {
  if (!mode) return ops::binary_float(&kernels::binary_float_div, "div", self, other, out);
  if (*mode == "trunc") {
    return ops::binary_divmod(&kernels::binary_divmod_div_trunc, "div_trunc", self, other, out);
  }
  if (*mode == "floor") {
    return ops::binary_divmod(&kernels::binary_divmod_div_floor, "div_floor", self, other, out);
  }
  ST_ERROR("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode,
           "'");
}

// pow's Scalar forms: the Scalar as a wrapped 0-dim tensor through pow's
// entry point (binary_nonbool.cu).
Tensor pow_scalar(const Tensor& self, const Tensor& exponent, const std::optional<Tensor>& out) {
  return ops::binary_nonbool(&kernels::binary_nonbool_pow, "pow", self, exponent, out);
}

// gelu's entry point by `approximate` (unary_floating.cu).
kernels::UnaryEntry* gelu_entry(std::string_view approximate) {
  if (approximate == "tanh") return &kernels::unary_floating_gelu_tanh;
  ST_CHECK(approximate == "none", "approximate argument must be either none or tanh.");
  return &kernels::unary_floating_gelu;
}

// values/indices out=: the CPU's dtype checks, then resize and copy.
std::tuple<Tensor, Tensor> sort_outs(const std::tuple<Tensor, Tensor>& computed,
                                     const Tensor& values, const Tensor& indices, const char* op) {
  const Tensor& v = std::get<0>(computed);
  check_sort_outs(v, values, indices, op);
  into_out(v, values, op);
  into_out(std::get<1>(computed), indices, op);
  return {values, indices};
}

Tensor extreme_all(bool is_max, const Tensor& self) {
  const char* name = is_max ? "max" : "min";
  ST_CHECK(self.numel() > 0, name,
           "(): Expected reduction dim to be specified for "
           "input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  return ops::reduce(is_max ? Reduce::Amax : Reduce::Amin, name, self, std::nullopt, false,
                     std::nullopt);
}
std::tuple<Tensor, Tensor> extreme_dim_out(bool is_max, const Tensor& self, int64_t dim,
                                           bool keepdim, const Tensor& values,
                                           const Tensor& indices) {
  const char* name = is_max ? "max" : "min";
  auto r = ops::arg_reduce(is_max, name, self, dim, keepdim, true);
  into_out(std::get<0>(r), values, name);
  into_out(std::get<1>(r), indices, name);
  return {values, indices};
}

}  // namespace

// ---- factories and views: the core's device-generic kernels serve CUDA too
// (`CPU, CUDA, Meta:` in the YAML); these are the CUDA-only ones.

Tensor copy_cuda_(const Tensor& self, const Tensor& src, bool non_blocking) {
  return ops::copy_(self, src, non_blocking);
}
Tensor fill_cuda_(const Tensor& self, const Scalar& value) { return ops::fill_(self, value); }
Tensor fill_cuda_(const Tensor& self, const Tensor& value) {
  return ops::fill_tensor_(self, value);
}
Tensor zero_cuda_(const Tensor& self) { return ops::zero_(self); }

Tensor arange_out_cuda(const Scalar& start, const Scalar& end, const Scalar& step,
                       const Tensor& out) {
  return ops::arange_out(start, end, step, out);
}
Tensor rand_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>,
                 std::optional<Device> device, std::optional<bool>) {
  return ops::random(false, size, dtype, device);
}
Tensor randn_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>,
                  std::optional<Device> device, std::optional<bool>) {
  return ops::random(true, size, dtype, device);
}

// ---- binary operators (the ones of one schema form are generated: cuda_pointwise) ----------

Tensor floor_divide_cuda(const Tensor& self, const Tensor& other) {
  return div_mode(self, other, "floor", std::nullopt);
}
Tensor floor_divide_cuda_(const Tensor& self, const Tensor& other) {
  return div_mode(self, other, "floor", self);
}
Tensor floor_divide_out_cuda(const Tensor& self, const Tensor& other, const Tensor& out) {
  return div_mode(self, other, "floor", out);
}

Tensor div_cuda(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return div_mode(self, other, mode, std::nullopt);
}
Tensor div_cuda_(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return div_mode(self, other, mode, self);
}
Tensor div_out_cuda(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode,
                    const Tensor& out) {
  return div_mode(self, other, mode, out);
}

Tensor pow_cuda(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  return pow_scalar(self, wrap(exponent), std::nullopt);
}
Tensor pow_out_cuda(const Tensor& self, const Scalar& exponent, const Tensor& out) {
  check_int_pow_scalar(self, exponent);
  return pow_scalar(self, wrap(exponent), out);
}
Tensor pow_cuda_(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  return pow_scalar(self, wrap(exponent), self);
}
Tensor pow_cuda(const Scalar& self, const Tensor& exponent) {
  return pow_scalar(wrap(self), exponent, std::nullopt);
}
Tensor pow_out_cuda(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  return pow_scalar(wrap(self), exponent, out);
}

// ---- unary operators with extra arguments (the others are generated: cuda_pointwise) ------

Tensor gelu_cuda(const Tensor& self, std::string_view approximate) {
  return ops::unary_floating(gelu_entry(approximate), "GeluKernelImpl", self, std::nullopt);
}
Tensor gelu_cuda_(const Tensor& self, std::string_view approximate) {
  return ops::unary_floating(gelu_entry(approximate), "GeluKernelImpl", self, self);
}
Tensor gelu_out_cuda(const Tensor& self, std::string_view approximate, const Tensor& out) {
  return ops::unary_floating(gelu_entry(approximate), "GeluKernelImpl", self, out);
}

Tensor nan_to_num_cuda(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  return ops::nan_to_num(self, nan, posinf, neginf, std::nullopt);
}
Tensor nan_to_num_cuda_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                        std::optional<double> neginf) {
  return ops::nan_to_num(self, nan, posinf, neginf, self);
}
Tensor nan_to_num_out_cuda(const Tensor& self, std::optional<double> nan,
                           std::optional<double> posinf, std::optional<double> neginf,
                           const Tensor& out) {
  return ops::nan_to_num(self, nan, posinf, neginf, out);
}

// ---- clamp / where / masked_fill ----------------------------------------------------------

Tensor clamp_cuda(const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), std::nullopt);
}
Tensor clamp_cuda_(const Tensor& self, const std::optional<Scalar>& min,
                   const std::optional<Scalar>& max) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), self);
}
Tensor clamp_out_cuda(const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max, const Tensor& out) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), out);
}
Tensor clamp_cuda(const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max) {
  return ops::clamp(self, min, max, std::nullopt);
}
Tensor clamp_cuda_(const Tensor& self, const std::optional<Tensor>& min,
                   const std::optional<Tensor>& max) {
  return ops::clamp(self, min, max, self);
}
Tensor clamp_out_cuda(const Tensor& self, const std::optional<Tensor>& min,
                      const std::optional<Tensor>& max, const Tensor& out) {
  return ops::clamp(self, min, max, out);
}
Tensor where_cuda(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return ops::where(condition, self, other, std::nullopt);
}
Tensor where_out_cuda(const Tensor& condition, const Tensor& self, const Tensor& other,
                      const Tensor& out) {
  return ops::where(condition, self, other, out);
}
Tensor masked_fill_cuda_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return ops::masked_fill_(self, mask, wrap(value));
}
Tensor masked_fill_cuda_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return ops::masked_fill_(self, mask, value);
}

// ---- reductions ------------------------------------------------------------------------------

Tensor sum_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Sum, "sum", self, dim, keepdim, dtype);
}
Tensor sum_out_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(ops::reduce(Reduce::Sum, "sum", self, dim, keepdim, dtype.value_or(out.dtype())),
                  out, "sum");
}
Tensor mean_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Mean, "mean", self, dim, keepdim, dtype);
}
Tensor mean_out_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                     std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(
      ops::reduce(Reduce::Mean, "mean", self, dim, keepdim, dtype.value_or(out.dtype())), out,
      "mean");
}
Tensor prod_cuda(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Prod, "prod", self, std::nullopt, false, dtype);
}
Tensor prod_out_cuda(const Tensor& self, std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(prod_cuda(self, dtype.value_or(out.dtype())), out, "prod");
}
Tensor prod_cuda(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Prod, "prod", self, IntArrayRef(&dim, 1), keepdim, dtype);
}
Tensor prod_out_cuda(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype,
                     const Tensor& out) {
  return into_out(prod_cuda(self, dim, keepdim, dtype.value_or(out.dtype())), out, "prod");
}
Tensor amax_cuda(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::reduce(Reduce::Amax, "amax", self, dim, keepdim, std::nullopt);
}
Tensor amax_out_cuda(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return into_out(amax_cuda(self, dim, keepdim), out, "amax");
}
Tensor amin_cuda(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::reduce(Reduce::Amin, "amin", self, dim, keepdim, std::nullopt);
}
Tensor amin_out_cuda(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return into_out(amin_cuda(self, dim, keepdim), out, "amin");
}

std::tuple<Tensor, Tensor> max_cuda(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::arg_reduce(true, "max", self, dim, keepdim, true);
}
std::tuple<Tensor, Tensor> max_out_cuda(const Tensor& self, int64_t dim, bool keepdim,
                                        const Tensor& values, const Tensor& indices) {
  return extreme_dim_out(true, self, dim, keepdim, values, indices);
}
Tensor max_cuda(const Tensor& self) { return extreme_all(true, self); }
Tensor max_out_cuda(const Tensor& self, const Tensor& out) {
  return into_out(extreme_all(true, self), out, "max");
}
std::tuple<Tensor, Tensor> min_cuda(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::arg_reduce(false, "min", self, dim, keepdim, true);
}
std::tuple<Tensor, Tensor> min_out_cuda(const Tensor& self, int64_t dim, bool keepdim,
                                        const Tensor& values, const Tensor& indices) {
  return extreme_dim_out(false, self, dim, keepdim, values, indices);
}
Tensor min_cuda(const Tensor& self) { return extreme_all(false, self); }
Tensor min_out_cuda(const Tensor& self, const Tensor& out) {
  return into_out(extreme_all(false, self), out, "min");
}
Tensor argmax_cuda(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return std::get<1>(ops::arg_reduce(true, "argmax", self, dim, keepdim, false));
}
Tensor argmax_out_cuda(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                       const Tensor& out) {
  return into_out(argmax_cuda(self, dim, keepdim), out, "argmax");
}
Tensor argmin_cuda(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return std::get<1>(ops::arg_reduce(false, "argmin", self, dim, keepdim, false));
}
Tensor argmin_out_cuda(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                       const Tensor& out) {
  return into_out(argmin_cuda(self, dim, keepdim), out, "argmin");
}

// all / any: over everything, one dim or several, each with its out=.
#define ST_CUDA_LOGICAL_REDUCE_KERNELS(NAME, OP)                                              \
  Tensor NAME##_cuda(const Tensor& self) {                                                    \
    return ops::reduce(Reduce::OP, #NAME, self, std::nullopt, false, std::nullopt);           \
  }                                                                                           \
  Tensor NAME##_cuda(const Tensor& self, int64_t dim, bool keepdim) {                         \
    return ops::reduce(Reduce::OP, #NAME, self, IntArrayRef(&dim, 1), keepdim, std::nullopt); \
  }                                                                                           \
  Tensor NAME##_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {      \
    return ops::reduce(Reduce::OP, #NAME, self, dim, keepdim, std::nullopt);                  \
  }                                                                                           \
  Tensor NAME##_out_cuda(const Tensor& self, const Tensor& out) {                             \
    return into_out(NAME##_cuda(self), out, #NAME);                                           \
  }                                                                                           \
  Tensor NAME##_out_cuda(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {  \
    return into_out(NAME##_cuda(self, dim, keepdim), out, #NAME);                             \
  }                                                                                           \
  Tensor NAME##_out_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,    \
                         const Tensor& out) {                                                 \
    return into_out(NAME##_cuda(self, dim, keepdim), out, #NAME);                             \
  }

ST_CUDA_LOGICAL_REDUCE_KERNELS(all, All)
ST_CUDA_LOGICAL_REDUCE_KERNELS(any, Any)

#undef ST_CUDA_LOGICAL_REDUCE_KERNELS

Tensor var_cuda(const Tensor& self, std::optional<IntArrayRef> dim,
                const std::optional<Scalar>& correction, bool keepdim) {
  return ops::var_std("var", self, dim, correction, keepdim, false);
}
Tensor var_out_cuda(const Tensor& self, std::optional<IntArrayRef> dim,
                    const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  return into_out(var_cuda(self, dim, correction, keepdim), out, "var");
}
Tensor std_cuda(const Tensor& self, std::optional<IntArrayRef> dim,
                const std::optional<Scalar>& correction, bool keepdim) {
  return ops::var_std("std", self, dim, correction, keepdim, true);
}
Tensor std_out_cuda(const Tensor& self, std::optional<IntArrayRef> dim,
                    const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  return into_out(std_cuda(self, dim, correction, keepdim), out, "std");
}

Tensor linalg_vector_norm_cuda(const Tensor& self, const Scalar& ord,
                               std::optional<IntArrayRef> dim, bool keepdim,
                               std::optional<ScalarType> dtype) {
  return ops::vector_norm(self, ord, dim, keepdim, dtype);
}
Tensor linalg_vector_norm_out_cuda(const Tensor& self, const Scalar& ord,
                                   std::optional<IntArrayRef> dim, bool keepdim,
                                   std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(ops::vector_norm(self, ord, dim, keepdim, dtype), out, "linalg.vector_norm");
}

Tensor cumsum_cuda(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::cumsum(self, dim, dtype);
}
Tensor cumsum_cuda_(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  check_cumsum_inplace_dtype(self, dtype);
  ops::copy_(self, ops::cumsum(self, dim, self.dtype()), false);
  return self;
}
Tensor cumsum_out_cuda(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
                       const Tensor& out) {
  const std::optional<ScalarType> dt = dtype.has_value() ? dtype : out.dtype();
  return into_out(ops::cumsum(self, dim, dt), out, "cumsum");
}

Tensor softmax_cuda(const Tensor& self, int64_t dim, bool half_to_float) {
  return ops::softmax(false, self, dim, half_to_float, std::nullopt);
}
Tensor softmax_out_cuda(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return ops::softmax(false, self, dim, half_to_float, out);
}
Tensor log_softmax_cuda(const Tensor& self, int64_t dim, bool half_to_float) {
  return ops::softmax(true, self, dim, half_to_float, std::nullopt);
}
Tensor log_softmax_out_cuda(const Tensor& self, int64_t dim, bool half_to_float,
                            const Tensor& out) {
  return ops::softmax(true, self, dim, half_to_float, out);
}

// ---- matrix products (cuBLAS) ----------------------------------------------------------------

Tensor mm_cuda(const Tensor& self, const Tensor& mat2) { return ops::mm(self, mat2); }
Tensor mm_out_cuda(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_gemm_out_dtype(out, self.dtype(), "mm");
  return into_out(ops::mm(self, mat2), out, "mm");
}
Tensor bmm_cuda(const Tensor& self, const Tensor& mat2) { return ops::bmm(self, mat2); }
Tensor bmm_out_cuda(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_gemm_out_dtype(out, self.dtype(), "bmm");
  return into_out(ops::bmm(self, mat2), out, "bmm");
}
Tensor addmm_cuda(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                  const Scalar& alpha) {
  return ops::addmm(self, mat1, mat2, beta, alpha);
}
Tensor addmm_cuda_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                   const Scalar& alpha) {
  return ops::addmm_(self, mat1, mat2, beta, alpha);
}
Tensor addmm_out_cuda(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                      const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  check_gemm_out_dtype(out, mat1.dtype(), "addmm");
  if (out.is_same(self)) {
    // out = self is not resized, so it must have the result's shape already.
    check_addmm_out_shape(out, mat1, mat2);
    ops::copy_(out, ops::addmm(self, mat1, mat2, beta, alpha), false);
    return out;
  }
  return into_out(ops::addmm(self, mat1, mat2, beta, alpha), out, "addmm");
}
Tensor dot_cuda(const Tensor& self, const Tensor& tensor) { return ops::dot(self, tensor); }

// ---- shape ops, gather/scatter, indexing ----------------------------------------------------

Tensor cat_cuda(ArrayRef<Tensor> tensors, int64_t dim) { return ops::cat(tensors, dim); }
Tensor cat_out_cuda(ArrayRef<Tensor> tensors, int64_t dim, const Tensor& out) {
  return into_out(ops::cat(tensors, dim), out, "cat");
}
Tensor flip_cuda(const Tensor& self, IntArrayRef dims) { return ops::flip(self, dims); }
// The YAML's composite flip.out calls the CPU kernel itself, so CUDA needs
// its own.
Tensor flip_out_cuda(const Tensor& self, IntArrayRef dims, const Tensor& out) {
  return into_out(ops::flip(self, dims), out, "flip");
}
Tensor index_select_cuda(const Tensor& self, int64_t dim, const Tensor& index) {
  return ops::index_select(self, dim, index);
}
Tensor index_select_out_cuda(const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& out) {
  return into_out(ops::index_select(self, dim, index), out, "index_select");
}

Tensor gather_cuda(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  return ops::gather(self, dim, index);
}
Tensor gather_out_cuda(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/,
                       const Tensor& out) {
  return indexing_out(ops::gather(self, dim, index), out, "gather");
}
Tensor scatter_cuda_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_(self, dim, index, &src, nullptr);
}
Tensor scatter_cuda_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter_(self, dim, index, nullptr, &value);
}
Tensor scatter_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_(st::clone(self), dim, index, &src, nullptr);
}
Tensor scatter_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter_(st::clone(self), dim, index, nullptr, &value);
}
Tensor scatter_out_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                        const Tensor& out) {
  return indexing_out(scatter_cuda(self, dim, index, src), out, "scatter");
}
Tensor scatter_out_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                        const Tensor& out) {
  return indexing_out(scatter_cuda(self, dim, index, value), out, "scatter");
}

// Results sized on the host: masked_select, nonzero.
Tensor masked_select_cuda(const Tensor& self, const Tensor& mask) {
  return ops::masked_select(self, mask);
}
Tensor masked_select_out_cuda(const Tensor& self, const Tensor& mask, const Tensor& out) {
  return indexing_out(ops::masked_select(self, mask), out, "masked_select");
}
Tensor nonzero_cuda(const Tensor& self) { return ops::nonzero(self); }
Tensor nonzero_out_cuda(const Tensor& self, const Tensor& out) {
  check_nonzero_out_dtype(out);
  return indexing_out(ops::nonzero(self), out, "nonzero");
}

Tensor index_cuda(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  return ops::index(self, indices);
}
Tensor index_out_cuda(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                      const Tensor& out) {
  return indexing_out(ops::index(self, indices), out, "index");
}

// ---- sort / topk ---------------------------------------------------------------------------

std::tuple<Tensor, Tensor> sort_cuda(const Tensor& self, std::optional<bool> /*stable*/,
                                     int64_t dim, bool descending) {
  return ops::sort(self, dim, std::nullopt, descending, "sort");
}
std::tuple<Tensor, Tensor> sort_out_cuda(const Tensor& self, std::optional<bool> stable,
                                         int64_t dim, bool descending, const Tensor& values,
                                         const Tensor& indices) {
  return sort_outs(sort_cuda(self, stable, dim, descending), values, indices, "sort");
}
std::tuple<Tensor, Tensor> topk_cuda(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                     bool /*sorted*/) {
  return ops::sort(self, dim, k, largest, "topk");
}
std::tuple<Tensor, Tensor> topk_out_cuda(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                         bool /*sorted*/, const Tensor& values,
                                         const Tensor& indices) {
  return sort_outs(ops::sort(self, dim, k, largest, "topk"), values, indices, "topk");
}

}  // namespace st::native
