// Registers the CUDA backend's kernels for the CUDA dispatch key.
//
// Note [Why CUDA kernels are registered here, not in the YAML]
// The YAML's dispatch entries become registrations in every build, so a
// `CUDA:` entry would name kernels a CPU-only core does not compile. The
// CUDA backend exists only when STABLETORCH_CUDA resolves ON, so it
// registers its kernels itself, with the same typed signatures the YAML
// gives the CPU kernels (registration checks them against the schemas).
// Operators the YAML does not define yet are registered all the same: the
// dispatcher keeps a kernel until its schema arrives.
#include <string_view>

#include <st/core/error.h>
#include <st/dispatch/library.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "native/sort_out_checks.h"

namespace st::cuda {
namespace {

using kernels::Binary;
using kernels::Reduce;
using kernels::Unary;

// Factories and views: the core's device-generic kernels (they allocate
// from the CUDA caching allocator through the allocator registry).
Tensor empty_memory_format(IntArrayRef size, std::optional<ScalarType> dtype,
                           std::optional<Layout> layout, std::optional<Device> device,
                           std::optional<bool> pin_memory,
                           std::optional<MemoryFormat> memory_format) {
  return st::native::empty(size, dtype, layout, device, pin_memory, memory_format);
}
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  return st::native::empty_strided(size, stride, dtype, layout, device, pin_memory);
}
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  return st::native::as_strided(self, size, stride, storage_offset);
}

Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  return ops::copy_(self, src, non_blocking);
}
Tensor fill_scalar_(const Tensor& self, const Scalar& value) { return ops::fill_(self, value); }
Tensor fill_tensor_(const Tensor& self, const Tensor& value) {
  return ops::fill_tensor_(self, value);
}
Tensor zero_(const Tensor& self) { return ops::zero_(self); }

// Binary operators: functional, in-place and out variants of one kernel.
template <Binary op, const char* name>
Tensor binary_alpha(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return ops::binary(op, name, self, other, alpha, std::nullopt);
}
template <Binary op, const char* name>
Tensor binary_alpha_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return ops::binary(op, name, self, other, alpha, self);
}
template <Binary op, const char* name>
Tensor binary_alpha_out(const Tensor& self, const Tensor& other, const Scalar& alpha,
                        const Tensor& out) {
  return ops::binary(op, name, self, other, alpha, out);
}
template <Binary op, const char* name>
Tensor binary_plain(const Tensor& self, const Tensor& other) {
  return ops::binary(op, name, self, other, Scalar(int64_t{1}), std::nullopt);
}
template <Binary op, const char* name>
Tensor binary_plain_(const Tensor& self, const Tensor& other) {
  return ops::binary(op, name, self, other, Scalar(int64_t{1}), self);
}
template <Binary op, const char* name>
Tensor binary_plain_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::binary(op, name, self, other, Scalar(int64_t{1}), out);
}

template <Unary op, const char* name>
Tensor unary_fn(const Tensor& self) {
  return ops::unary(op, name, self, std::nullopt);
}
template <Unary op, const char* name>
Tensor unary_fn_(const Tensor& self) {
  return ops::unary(op, name, self, self);
}
template <Unary op, const char* name>
Tensor unary_fn_out(const Tensor& self, const Tensor& out) {
  return ops::unary(op, name, self, out);
}

Tensor sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Sum, "sum", self, dim, keepdim, dtype);
}
Tensor mean_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Mean, "mean", self, dim, keepdim, dtype);
}
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::reduce(Reduce::Amax, "amax", self, dim, keepdim, std::nullopt);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::reduce(Reduce::Amin, "amin", self, dim, keepdim, std::nullopt);
}

Tensor arange_start_out(const Scalar& start, const Scalar& end, const Scalar& step,
                        const Tensor& out) {
  return ops::arange_out(start, end, step, out);
}
Tensor rand_kernel(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>,
            std::optional<Device> device, std::optional<bool>) {
  return ops::random(false, size, dtype, device);
}
Tensor randn_kernel(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>,
             std::optional<Device> device, std::optional<bool>) {
  return ops::random(true, size, dtype, device);
}

Tensor cat(ArrayRef<Tensor> tensors, int64_t dim) { return ops::cat(tensors, dim); }
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return ops::index_select(self, dim, index);
}
Tensor mm(const Tensor& self, const Tensor& mat2) { return ops::mm(self, mat2); }
Tensor bmm(const Tensor& self, const Tensor& mat2) { return ops::bmm(self, mat2); }
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  return ops::addmm(self, mat1, mat2, beta, alpha);
}

// ---- the out= variants of computed results -----------------------------------

// out resized to the result and filled from it (the CUDA copy kernel
// converts the dtype).
Tensor into_out(const Tensor& computed, const Tensor& out, const char* name) {
  ST_CHECK(out.device() == computed.device(), name, ": expected out on ", computed.device(),
           " but got ", out.device());
  st::native::resize_output(out, computed.sizes());
  ops::copy_(out, computed, false);
  return out;
}

// ---- mm / bmm / addmm out= (the CPU's out dtype check first) ----------------------

void check_gemm_out_dtype(const Tensor& out, ScalarType want, const char* op) {
  ST_CHECK(out.dtype() == want, op, ": Expected out tensor to have dtype ",
           torch::headeronly::toString(want), ", but got ",
           torch::headeronly::toString(out.dtype()), " instead");
}
Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_gemm_out_dtype(out, self.dtype(), "mm");
  return into_out(ops::mm(self, mat2), out, "mm");
}
Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_gemm_out_dtype(out, self.dtype(), "bmm");
  return into_out(ops::bmm(self, mat2), out, "bmm");
}
Tensor addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out) {
  check_gemm_out_dtype(out, mat1.dtype(), "addmm");
  if (out.is_same(self)) {
    // As the CPU: out = self is not resized, so it must have the result's
    // shape already.
    ST_CHECK(mat1.dim() == 2 && mat2.dim() == 2 && out.dim() == 2 &&
                 out.size(0) == mat1.size(0) && out.size(1) == mat2.size(1),
             "addmm: out must have shape [", mat1.dim() == 2 ? mat1.size(0) : -1, ", ",
             mat2.dim() == 2 ? mat2.size(1) : -1, "], got ",
             st::native::shape_str(out.sizes()));
    ops::copy_(out, ops::addmm(self, mat1, mat2, beta, alpha), false);
    return out;
  }
  return into_out(ops::addmm(self, mat1, mat2, beta, alpha), out, "addmm");
}

// ---- div with rounding_mode, pow with a Scalar ----------------------------------

Binary div_op(std::optional<std::string_view> mode) {
  if (!mode) return Binary::Div;
  if (*mode == "trunc") return Binary::DivTrunc;
  if (*mode == "floor") return Binary::DivFloor;
  ST_ERROR("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
           *mode, "'");
}
const char* div_name(Binary op) {
  return op == Binary::Div ? "div" : (op == Binary::DivTrunc ? "div_trunc" : "div_floor");
}
Tensor div_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  const Binary op = div_op(mode);
  return ops::binary(op, div_name(op), self, other, Scalar(int64_t{1}), std::nullopt);
}
Tensor div_mode_(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  const Binary op = div_op(mode);
  return ops::binary(op, div_name(op), self, other, Scalar(int64_t{1}), self);
}
Tensor div_mode_out(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode,
                    const Tensor& out) {
  const Binary op = div_op(mode);
  return ops::binary(op, div_name(op), self, other, Scalar(int64_t{1}), out);
}

Tensor wrap(const Scalar& s) { return st::native::wrapped_scalar_tensor(s); }
void check_int_pow_scalar(const Tensor& base, const Scalar& exp) {
  if (torch::headeronly::isIntegralType(base.dtype(), true) && exp.isIntegral(true)) {
    ST_CHECK(exp.toLong() >= 0, "Integers to negative integer powers are not allowed.");
  }
}
Tensor pow_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  return ops::binary(Binary::Pow, "pow", self, wrap(exponent), Scalar(int64_t{1}), std::nullopt);
}
Tensor pow_tensor_scalar_out(const Tensor& self, const Scalar& exponent, const Tensor& out) {
  check_int_pow_scalar(self, exponent);
  return ops::binary(Binary::Pow, "pow", self, wrap(exponent), Scalar(int64_t{1}), out);
}
Tensor pow_tensor_scalar_(const Tensor& self, const Scalar& exponent) {
  check_int_pow_scalar(self, exponent);
  return ops::binary(Binary::Pow, "pow", self, wrap(exponent), Scalar(int64_t{1}), self);
}
Tensor pow_scalar_tensor(const Scalar& self, const Tensor& exponent) {
  return ops::binary(Binary::Pow, "pow", wrap(self), exponent, Scalar(int64_t{1}), std::nullopt);
}
Tensor pow_scalar_tensor_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  return ops::binary(Binary::Pow, "pow", wrap(self), exponent, Scalar(int64_t{1}), out);
}

// ---- unary ops with arguments -----------------------------------------------------

Unary gelu_op(std::string_view approximate) {
  if (approximate == "tanh") return Unary::GeluTanh;
  ST_CHECK(approximate == "none", "approximate argument must be either none or tanh.");
  return Unary::Gelu;
}
Tensor gelu(const Tensor& self, std::string_view approximate) {
  return ops::unary(gelu_op(approximate), "GeluKernelImpl", self, std::nullopt);
}
Tensor gelu_(const Tensor& self, std::string_view approximate) {
  return ops::unary(gelu_op(approximate), "GeluKernelImpl", self, self);
}
Tensor gelu_out(const Tensor& self, std::string_view approximate, const Tensor& out) {
  return ops::unary(gelu_op(approximate), "GeluKernelImpl", self, out);
}
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return ops::nan_to_num(self, nan, posinf, neginf, std::nullopt);
}
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  return ops::nan_to_num(self, nan, posinf, neginf, self);
}
Tensor nan_to_num_out(const Tensor& self, std::optional<double> nan,
                      std::optional<double> posinf, std::optional<double> neginf,
                      const Tensor& out) {
  return ops::nan_to_num(self, nan, posinf, neginf, out);
}

// ---- clamp / where / masked_fill --------------------------------------------------

std::optional<Tensor> wrap_opt(const std::optional<Scalar>& s) {
  if (!s) return std::nullopt;
  return wrap(*s);
}
Tensor clamp_scalar(const Tensor& self, const std::optional<Scalar>& min,
                    const std::optional<Scalar>& max) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), std::nullopt);
}
Tensor clamp_scalar_(const Tensor& self, const std::optional<Scalar>& min,
                     const std::optional<Scalar>& max) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), self);
}
Tensor clamp_scalar_out(const Tensor& self, const std::optional<Scalar>& min,
                        const std::optional<Scalar>& max, const Tensor& out) {
  return ops::clamp(self, wrap_opt(min), wrap_opt(max), out);
}
Tensor clamp_tensor(const Tensor& self, const std::optional<Tensor>& min,
                    const std::optional<Tensor>& max) {
  return ops::clamp(self, min, max, std::nullopt);
}
Tensor clamp_tensor_(const Tensor& self, const std::optional<Tensor>& min,
                     const std::optional<Tensor>& max) {
  return ops::clamp(self, min, max, self);
}
Tensor clamp_tensor_out(const Tensor& self, const std::optional<Tensor>& min,
                        const std::optional<Tensor>& max, const Tensor& out) {
  return ops::clamp(self, min, max, out);
}
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return ops::where(condition, self, other, std::nullopt);
}
Tensor where_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                 const Tensor& out) {
  return ops::where(condition, self, other, out);
}
Tensor masked_fill_scalar_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return ops::masked_fill_(self, mask, wrap(value));
}
Tensor masked_fill_tensor_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return ops::masked_fill_(self, mask, value);
}

// ---- reductions ----------------------------------------------------------------------

Tensor sum_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(ops::reduce(Reduce::Sum, "sum", self, dim, keepdim, dtype.value_or(out.dtype())),
                  out, "sum");
}
Tensor mean_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(
      ops::reduce(Reduce::Mean, "mean", self, dim, keepdim, dtype.value_or(out.dtype())), out,
      "mean");
}
Tensor prod_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Prod, "prod", self, std::nullopt, false, dtype);
}
Tensor prod_all_out(const Tensor& self, std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(prod_all(self, dtype.value_or(out.dtype())), out, "prod");
}
Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return ops::reduce(Reduce::Prod, "prod", self, IntArrayRef(&dim, 1), keepdim, dtype);
}
Tensor prod_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                    std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(prod_dim(self, dim, keepdim, dtype.value_or(out.dtype())), out, "prod");
}
void check_same_dtype_out(const Tensor& self, const Tensor& out) {
  ST_CHECK(out.dtype() == self.dtype(), "Expected the dtype for input and out to match, but got ",
           torch::headeronly::toString(self.dtype()), " for input's dtype and ",
           torch::headeronly::toString(out.dtype()), " for out's dtype.");
}
Tensor amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return into_out(ops::reduce(Reduce::Amax, "amax", self, dim, keepdim, std::nullopt), out,
                  "amax");
}
Tensor amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return into_out(ops::reduce(Reduce::Amin, "amin", self, dim, keepdim, std::nullopt), out,
                  "amin");
}

template <bool kMax>
std::tuple<Tensor, Tensor> extreme_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::arg_reduce(kMax, kMax ? "max" : "min", self, dim, keepdim, true);
}
template <bool kMax>
std::tuple<Tensor, Tensor> extreme_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                           const Tensor& values, const Tensor& indices) {
  auto r = extreme_dim<kMax>(self, dim, keepdim);
  into_out(std::get<0>(r), values, kMax ? "max" : "min");
  into_out(std::get<1>(r), indices, kMax ? "max" : "min");
  return {values, indices};
}
template <bool kMax>
Tensor extreme_all(const Tensor& self) {
  const char* name = kMax ? "max" : "min";
  ST_CHECK(self.numel() > 0, name, "(): Expected reduction dim to be specified for "
           "input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  return ops::reduce(kMax ? Reduce::Amax : Reduce::Amin, name, self, std::nullopt, false,
                     std::nullopt);
}
template <bool kMax>
Tensor extreme_all_out(const Tensor& self, const Tensor& out) {
  return into_out(extreme_all<kMax>(self), out, kMax ? "max" : "min");
}
template <bool kMax>
Tensor arg_extreme(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return std::get<1>(ops::arg_reduce(kMax, kMax ? "argmax" : "argmin", self, dim, keepdim, false));
}
template <bool kMax>
Tensor arg_extreme_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                       const Tensor& out) {
  return into_out(arg_extreme<kMax>(self, dim, keepdim), out, kMax ? "argmax" : "argmin");
}

template <Reduce op, const char* name>
Tensor logical_all(const Tensor& self) {
  return ops::reduce(op, name, self, std::nullopt, false, std::nullopt);
}
template <Reduce op, const char* name>
Tensor logical_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::reduce(op, name, self, IntArrayRef(&dim, 1), keepdim, std::nullopt);
}
template <Reduce op, const char* name>
Tensor logical_dims(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  return ops::reduce(op, name, self, dim, keepdim, std::nullopt);
}
template <Reduce op, const char* name>
Tensor logical_all_out(const Tensor& self, const Tensor& out) {
  return into_out(logical_all<op, name>(self), out, name);
}
template <Reduce op, const char* name>
Tensor logical_dim_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  return into_out(logical_dim<op, name>(self, dim, keepdim), out, name);
}
template <Reduce op, const char* name>
Tensor logical_dims_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                        const Tensor& out) {
  return into_out(logical_dims<op, name>(self, dim, keepdim), out, name);
}

template <bool kStd>
Tensor var_std(const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim) {
  return ops::var_std(kStd ? "std" : "var", self, dim, correction, keepdim, kStd);
}
template <bool kStd>
Tensor var_std_out(const Tensor& self, std::optional<IntArrayRef> dim,
                   const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  return into_out(var_std<kStd>(self, dim, correction, keepdim), out, kStd ? "std" : "var");
}

Tensor cat_out(ArrayRef<Tensor> tensors, int64_t dim, const Tensor& out) {
  return into_out(ops::cat(tensors, dim), out, "cat");
}
Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  return into_out(ops::index_select(self, dim, index), out, "index_select");
}

// ---- norms, dot, addmm_, softmax, cumsum, flip, gather/scatter ----------

Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                          bool keepdim, std::optional<ScalarType> dtype) {
  return ops::vector_norm(self, ord, dim, keepdim, dtype);
}
Tensor linalg_vector_norm_out(const Tensor& self, const Scalar& ord,
                              std::optional<IntArrayRef> dim, bool keepdim,
                              std::optional<ScalarType> dtype, const Tensor& out) {
  return into_out(ops::vector_norm(self, ord, dim, keepdim, dtype), out, "linalg.vector_norm");
}
Tensor dot(const Tensor& self, const Tensor& tensor) { return ops::dot(self, tensor); }
Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha) {
  return ops::addmm_(self, mat1, mat2, beta, alpha);
}
template <bool kLog>
Tensor softmax_fn(const Tensor& self, int64_t dim, bool half_to_float) {
  return ops::softmax(kLog, self, dim, half_to_float, std::nullopt);
}
template <bool kLog>
Tensor softmax_fn_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return ops::softmax(kLog, self, dim, half_to_float, out);
}
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::cumsum(self, dim, dtype);
}
Tensor cumsum_(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  if (dtype.has_value()) {
    ST_CHECK(*dtype == self.dtype(),
             "provided dtype must match the dtype of self tensor in cumsum. Got ",
             torch::headeronly::toString(*dtype), " and ",
             torch::headeronly::toString(self.dtype()), ".");
  }
  ops::copy_(self, ops::cumsum(self, dim, self.dtype()), false);
  return self;
}
Tensor cumsum_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
                  const Tensor& out) {
  const std::optional<ScalarType> dt = dtype.has_value() ? dtype : out.dtype();
  return into_out(ops::cumsum(self, dim, dt), out, "cumsum");
}
Tensor flip(const Tensor& self, IntArrayRef dims) { return ops::flip(self, dims); }
// The YAML's flip.out is composite over the CPU kernel itself, so CUDA
// needs its own.
Tensor flip_out(const Tensor& self, IntArrayRef dims, const Tensor& out) {
  return into_out(ops::flip(self, dims), out, "flip");
}

// gather/scatter out=: the CPU's checks (out's dtype, no sharing with the
// result), then resize and copy.
Tensor gather_scatter_out(const Tensor& computed, const Tensor& out, const char* name) {
  ST_CHECK(out.dtype() == computed.dtype(), name, "(): Expected out tensor to have dtype ",
           torch::headeronly::toString(computed.dtype()), ", but got ",
           torch::headeronly::toString(out.dtype()), " instead");
  ST_CHECK(!(out.numel() > 0 && computed.numel() > 0 && out.is_alias_of(computed)), name,
           "(): out must not share memory with the result");
  return into_out(computed, out, name);
}
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  return ops::gather(self, dim, index);
}
Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/,
                  const Tensor& out) {
  return gather_scatter_out(ops::gather(self, dim, index), out, "gather");
}
Tensor scatter_src_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_(self, dim, index, &src, nullptr);
}
Tensor scatter_value_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter_(self, dim, index, nullptr, &value);
}
Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_(st::clone(self), dim, index, &src, nullptr);
}
Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter_(st::clone(self), dim, index, nullptr, &value);
}
Tensor scatter_src_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const Tensor& out) {
  return gather_scatter_out(scatter_src(self, dim, index, src), out, "scatter");
}
Tensor scatter_value_out(const Tensor& self, int64_t dim, const Tensor& index,
                         const Scalar& value, const Tensor& out) {
  return gather_scatter_out(scatter_value(self, dim, index, value), out, "scatter");
}

// ---- results sized on the host: masked_select, nonzero; sort, topk ------------------

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  return ops::masked_select(self, mask);
}
Tensor masked_select_out(const Tensor& self, const Tensor& mask, const Tensor& out) {
  return gather_scatter_out(ops::masked_select(self, mask), out, "masked_select");
}
Tensor nonzero(const Tensor& self) { return ops::nonzero(self); }
Tensor nonzero_out(const Tensor& self, const Tensor& out) {
  ST_CHECK(out.dtype() == ScalarType::Long,
           "nonzero: Expected out tensor to have scalar type Long but got scalar type ",
           torch::headeronly::toString(out.dtype()));
  return gather_scatter_out(ops::nonzero(self), out, "nonzero");
}

Tensor index_tensor(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  return ops::index(self, indices);
}
Tensor index_tensor_out(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                        const Tensor& out) {
  return gather_scatter_out(ops::index(self, indices), out, "index");
}

// values/indices out=: the CPU's dtype checks, then resize and copy.
std::tuple<Tensor, Tensor> sort_outs(const std::tuple<Tensor, Tensor>& computed,
                                     const Tensor& values, const Tensor& indices,
                                     const char* op) {
  const Tensor& v = std::get<0>(computed);
  native::check_sort_outs(v, values, indices, op);
  into_out(v, values, op);
  into_out(std::get<1>(computed), indices, op);
  return {values, indices};
}
std::tuple<Tensor, Tensor> sort_stable(const Tensor& self, std::optional<bool> /*stable*/,
                                       int64_t dim, bool descending) {
  return ops::sort(self, dim, std::nullopt, descending, "sort");
}
std::tuple<Tensor, Tensor> sort_values_stable(const Tensor& self, std::optional<bool> stable,
                                              int64_t dim, bool descending, const Tensor& values,
                                              const Tensor& indices) {
  return sort_outs(sort_stable(self, stable, dim, descending), values, indices, "sort");
}
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool /*sorted*/) {
  return ops::sort(self, dim, k, largest, "topk");
}
std::tuple<Tensor, Tensor> topk_values(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                       bool /*sorted*/, const Tensor& values,
                                       const Tensor& indices) {
  return sort_outs(ops::sort(self, dim, k, largest, "topk"), values, indices, "topk");
}

constexpr char kAdd[] = "add";
constexpr char kSub[] = "sub";
constexpr char kMul[] = "mul";
constexpr char kDiv[] = "div";
constexpr char kMaximum[] = "maximum";
constexpr char kMinimum[] = "minimum";
constexpr char kAbs[] = "abs";
constexpr char kNeg[] = "neg";
constexpr char kExp[] = "exp";
constexpr char kLog[] = "log";
constexpr char kSqrt[] = "sqrt";
constexpr char kRsqrt[] = "rsqrt";
constexpr char kSin[] = "sin";
constexpr char kCos[] = "cos";
constexpr char kTanh[] = "tanh";
constexpr char kSigmoid[] = "sigmoid";
constexpr char kRelu[] = "relu";
constexpr char kFloorDivide[] = "div_floor";
constexpr char kRemainder[] = "remainder";
constexpr char kPow[] = "pow";
constexpr char kEq[] = "eq";
constexpr char kNe[] = "ne";
constexpr char kLt[] = "lt";
constexpr char kLe[] = "le";
constexpr char kGt[] = "gt";
constexpr char kGe[] = "ge";
constexpr char kLogicalAnd[] = "logical_and";
constexpr char kLogicalOr[] = "logical_or";
constexpr char kLogicalXor[] = "logical_xor";
constexpr char kBitAnd[] = "bitwise_and";
constexpr char kBitOr[] = "bitwise_or";
constexpr char kBitXor[] = "bitwise_xor";
constexpr char kShl[] = "bitwise_left_shift";
constexpr char kShr[] = "bitwise_right_shift";
constexpr char kSign[] = "sign";
constexpr char kLogicalNot[] = "logical_not";
constexpr char kBitwiseNot[] = "bitwise_not";
constexpr char kIsNan[] = "isnan";
constexpr char kIsInf[] = "isinf";
constexpr char kAll[] = "all";
constexpr char kAny[] = "any";

}  // namespace
}  // namespace st::cuda

// The unary families: name, name_, name.out.
#define ST_CUDA_UNARY(m, op, str)                                                  \
  m.impl(#str, ST_FN((st::cuda::unary_fn<st::cuda::Unary::op, st::cuda::k##op>)));   \
  m.impl(#str "_", ST_FN((st::cuda::unary_fn_<st::cuda::Unary::op, st::cuda::k##op>))); \
  m.impl(#str ".out", ST_FN((st::cuda::unary_fn_out<st::cuda::Unary::op, st::cuda::k##op>)))

// The binary families: functional, in-place and out overloads (the
// schemas' overload names differ between families, so they are spelled).
#define ST_CUDA_BINARY(m, op, k, fn, inplace, out)                                 \
  m.impl(fn, ST_FN((st::cuda::binary_plain<st::cuda::Binary::op, st::cuda::k>)));    \
  m.impl(inplace, ST_FN((st::cuda::binary_plain_<st::cuda::Binary::op, st::cuda::k>))); \
  m.impl(out, ST_FN((st::cuda::binary_plain_out<st::cuda::Binary::op, st::cuda::k>)))

#define ST_CUDA_LOGICAL_REDUCE(m, op, k, str)                                              \
  m.impl(str, ST_FN((st::cuda::logical_all<st::cuda::Reduce::op, st::cuda::k>)));         \
  m.impl(str ".dim", ST_FN((st::cuda::logical_dim<st::cuda::Reduce::op, st::cuda::k>)));   \
  m.impl(str ".dims", ST_FN((st::cuda::logical_dims<st::cuda::Reduce::op, st::cuda::k>))); \
  m.impl(str ".out", ST_FN((st::cuda::logical_dim_out<st::cuda::Reduce::op, st::cuda::k>))); \
  m.impl(str ".dims_out",                                                                  \
         ST_FN((st::cuda::logical_dims_out<st::cuda::Reduce::op, st::cuda::k>)));          \
  m.impl(str ".all_out", ST_FN((st::cuda::logical_all_out<st::cuda::Reduce::op, st::cuda::k>)))

ST_LIBRARY_IMPL(aten, CUDA, m) {
  using namespace st::cuda;
  m.impl("empty.memory_format", ST_FN(empty_memory_format));
  m.impl("empty_strided", ST_FN(empty_strided));
  m.impl("as_strided", ST_FN(as_strided));
  m.impl("copy_", ST_FN(copy_));
  m.impl("fill_.Scalar", ST_FN(fill_scalar_));
  m.impl("fill_.Tensor", ST_FN(fill_tensor_));
  m.impl("zero_", ST_FN(zero_));

  m.impl("add.Tensor", ST_FN((binary_alpha<Binary::Add, kAdd>)));
  m.impl("add_.Tensor", ST_FN((binary_alpha_<Binary::Add, kAdd>)));
  m.impl("add.out", ST_FN((binary_alpha_out<Binary::Add, kAdd>)));
  m.impl("sub.Tensor", ST_FN((binary_alpha<Binary::Sub, kSub>)));
  m.impl("sub_.Tensor", ST_FN((binary_alpha_<Binary::Sub, kSub>)));
  m.impl("sub.out", ST_FN((binary_alpha_out<Binary::Sub, kSub>)));
  m.impl("mul.Tensor", ST_FN((binary_plain<Binary::Mul, kMul>)));
  m.impl("mul_.Tensor", ST_FN((binary_plain_<Binary::Mul, kMul>)));
  m.impl("mul.out", ST_FN((binary_plain_out<Binary::Mul, kMul>)));
  m.impl("div.Tensor", ST_FN((binary_plain<Binary::Div, kDiv>)));
  m.impl("div_.Tensor", ST_FN((binary_plain_<Binary::Div, kDiv>)));
  m.impl("div.out", ST_FN((binary_plain_out<Binary::Div, kDiv>)));
  m.impl("maximum", ST_FN((binary_plain<Binary::Maximum, kMaximum>)));
  m.impl("maximum.out", ST_FN((binary_plain_out<Binary::Maximum, kMaximum>)));
  m.impl("minimum", ST_FN((binary_plain<Binary::Minimum, kMinimum>)));
  m.impl("minimum.out", ST_FN((binary_plain_out<Binary::Minimum, kMinimum>)));
  m.impl("div.Tensor_mode", ST_FN(div_mode));
  m.impl("div_.Tensor_mode", ST_FN(div_mode_));
  m.impl("div.out_mode", ST_FN(div_mode_out));
  ST_CUDA_BINARY(m, DivFloor, kFloorDivide, "floor_divide", "floor_divide_.Tensor",
                 "floor_divide.out");
  ST_CUDA_BINARY(m, Remainder, kRemainder, "remainder.Tensor", "remainder_.Tensor",
                 "remainder.Tensor_out");
  ST_CUDA_BINARY(m, Pow, kPow, "pow.Tensor_Tensor", "pow_.Tensor", "pow.Tensor_Tensor_out");
  m.impl("pow.Tensor_Scalar", ST_FN(pow_tensor_scalar));
  m.impl("pow_.Scalar", ST_FN(pow_tensor_scalar_));
  m.impl("pow.Tensor_Scalar_out", ST_FN(pow_tensor_scalar_out));
  m.impl("pow.Scalar", ST_FN(pow_scalar_tensor));
  m.impl("pow.Scalar_out", ST_FN(pow_scalar_tensor_out));
  // Comparisons: the Scalar overloads are composite (they wrap the Scalar
  // and call these).
  ST_CUDA_BINARY(m, Eq, kEq, "eq.Tensor", "eq_.Tensor", "eq.Tensor_out");
  ST_CUDA_BINARY(m, Ne, kNe, "ne.Tensor", "ne_.Tensor", "ne.Tensor_out");
  ST_CUDA_BINARY(m, Lt, kLt, "lt.Tensor", "lt_.Tensor", "lt.Tensor_out");
  ST_CUDA_BINARY(m, Le, kLe, "le.Tensor", "le_.Tensor", "le.Tensor_out");
  ST_CUDA_BINARY(m, Gt, kGt, "gt.Tensor", "gt_.Tensor", "gt.Tensor_out");
  ST_CUDA_BINARY(m, Ge, kGe, "ge.Tensor", "ge_.Tensor", "ge.Tensor_out");
  ST_CUDA_BINARY(m, LogicalAnd, kLogicalAnd, "logical_and", "logical_and_", "logical_and.out");
  ST_CUDA_BINARY(m, LogicalOr, kLogicalOr, "logical_or", "logical_or_", "logical_or.out");
  ST_CUDA_BINARY(m, LogicalXor, kLogicalXor, "logical_xor", "logical_xor_", "logical_xor.out");
  ST_CUDA_BINARY(m, BitAnd, kBitAnd, "bitwise_and.Tensor", "bitwise_and_.Tensor",
                 "bitwise_and.Tensor_out");
  ST_CUDA_BINARY(m, BitOr, kBitOr, "bitwise_or.Tensor", "bitwise_or_.Tensor",
                 "bitwise_or.Tensor_out");
  ST_CUDA_BINARY(m, BitXor, kBitXor, "bitwise_xor.Tensor", "bitwise_xor_.Tensor",
                 "bitwise_xor.Tensor_out");
  ST_CUDA_BINARY(m, Shl, kShl, "bitwise_left_shift.Tensor", "bitwise_left_shift_.Tensor",
                 "bitwise_left_shift.Tensor_out");
  ST_CUDA_BINARY(m, Shr, kShr, "bitwise_right_shift.Tensor", "bitwise_right_shift_.Tensor",
                 "bitwise_right_shift.Tensor_out");
  m.impl("clamp", ST_FN(clamp_scalar));
  m.impl("clamp_", ST_FN(clamp_scalar_));
  m.impl("clamp.out", ST_FN(clamp_scalar_out));
  m.impl("clamp.Tensor", ST_FN(clamp_tensor));
  m.impl("clamp_.Tensor", ST_FN(clamp_tensor_));
  m.impl("clamp.Tensor_out", ST_FN(clamp_tensor_out));
  m.impl("where.self", ST_FN(where));
  m.impl("where.self_out", ST_FN(where_out));
  m.impl("masked_fill_.Scalar", ST_FN(masked_fill_scalar_));
  m.impl("masked_fill_.Tensor", ST_FN(masked_fill_tensor_));

  ST_CUDA_UNARY(m, Abs, abs);
  ST_CUDA_UNARY(m, Neg, neg);
  ST_CUDA_UNARY(m, Exp, exp);
  ST_CUDA_UNARY(m, Log, log);
  ST_CUDA_UNARY(m, Sqrt, sqrt);
  ST_CUDA_UNARY(m, Rsqrt, rsqrt);
  ST_CUDA_UNARY(m, Sin, sin);
  ST_CUDA_UNARY(m, Cos, cos);
  ST_CUDA_UNARY(m, Tanh, tanh);
  ST_CUDA_UNARY(m, Sigmoid, sigmoid);
  m.impl("relu", ST_FN((unary_fn<Unary::Relu, kRelu>)));
  m.impl("relu_", ST_FN((unary_fn_<Unary::Relu, kRelu>)));
  ST_CUDA_UNARY(m, Sign, sign);
  ST_CUDA_UNARY(m, LogicalNot, logical_not);
  ST_CUDA_UNARY(m, BitwiseNot, bitwise_not);
  m.impl("isnan", ST_FN((unary_fn<Unary::IsNan, kIsNan>)));
  m.impl("isinf", ST_FN((unary_fn<Unary::IsInf, kIsInf>)));
  m.impl("gelu", ST_FN(gelu));
  m.impl("gelu_", ST_FN(gelu_));
  m.impl("gelu.out", ST_FN(gelu_out));
  m.impl("nan_to_num", ST_FN(nan_to_num));
  m.impl("nan_to_num_", ST_FN(nan_to_num_));
  m.impl("nan_to_num.out", ST_FN(nan_to_num_out));

  m.impl("sum.dim_IntList", ST_FN(sum_dim));
  m.impl("mean.dim", ST_FN(mean_dim));
  m.impl("amax", ST_FN(amax));
  m.impl("amin", ST_FN(amin));
  m.impl("sum.IntList_out", ST_FN(sum_out));
  m.impl("mean.out", ST_FN(mean_out));
  m.impl("amax.out", ST_FN(amax_out));
  m.impl("amin.out", ST_FN(amin_out));
  m.impl("prod", ST_FN(prod_all));
  m.impl("prod.out", ST_FN(prod_all_out));
  m.impl("prod.dim_int", ST_FN(prod_dim));
  m.impl("prod.int_out", ST_FN(prod_dim_out));
  m.impl("max.dim", ST_FN(extreme_dim<true>));
  m.impl("max.dim_max", ST_FN(extreme_dim_out<true>));
  m.impl("max", ST_FN(extreme_all<true>));
  m.impl("max.unary_out", ST_FN(extreme_all_out<true>));
  m.impl("min.dim", ST_FN(extreme_dim<false>));
  m.impl("min.dim_min", ST_FN(extreme_dim_out<false>));
  m.impl("min", ST_FN(extreme_all<false>));
  m.impl("min.unary_out", ST_FN(extreme_all_out<false>));
  m.impl("argmax", ST_FN(arg_extreme<true>));
  m.impl("argmax.out", ST_FN(arg_extreme_out<true>));
  m.impl("argmin", ST_FN(arg_extreme<false>));
  m.impl("argmin.out", ST_FN(arg_extreme_out<false>));
  ST_CUDA_LOGICAL_REDUCE(m, All, kAll, "all");
  ST_CUDA_LOGICAL_REDUCE(m, Any, kAny, "any");
  m.impl("var.correction", ST_FN(var_std<false>));
  m.impl("var.correction_out", ST_FN(var_std_out<false>));
  m.impl("std.correction", ST_FN(var_std<true>));
  m.impl("std.correction_out", ST_FN(var_std_out<true>));

  m.impl("arange.start_out", ST_FN(arange_start_out));
  m.impl("rand", ST_FN(rand_kernel));
  m.impl("randn", ST_FN(randn_kernel));

  m.impl("cat", ST_FN(cat));
  m.impl("cat.out", ST_FN(cat_out));
  m.impl("index_select", ST_FN(index_select));
  m.impl("index_select.out", ST_FN(index_select_out));
  m.impl("mm", ST_FN(mm));
  m.impl("bmm", ST_FN(bmm));
  m.impl("addmm", ST_FN(addmm));
  m.impl("addmm_", ST_FN(addmm_));
  m.impl("mm.out", ST_FN(mm_out));
  m.impl("bmm.out", ST_FN(bmm_out));
  m.impl("addmm.out", ST_FN(addmm_out));
  m.impl("dot", ST_FN(dot));

  m.impl("linalg_vector_norm", ST_FN(linalg_vector_norm));
  m.impl("linalg_vector_norm.out", ST_FN(linalg_vector_norm_out));
  m.impl("_softmax", ST_FN(softmax_fn<false>));
  m.impl("_softmax.out", ST_FN(softmax_fn_out<false>));
  m.impl("_log_softmax", ST_FN(softmax_fn<true>));
  m.impl("_log_softmax.out", ST_FN(softmax_fn_out<true>));
  m.impl("cumsum", ST_FN(cumsum));
  m.impl("cumsum_", ST_FN(cumsum_));
  m.impl("cumsum.out", ST_FN(cumsum_out));
  m.impl("flip", ST_FN(flip));
  m.impl("flip.out", ST_FN(flip_out));
  m.impl("gather", ST_FN(gather));
  m.impl("gather.out", ST_FN(gather_out));
  m.impl("scatter.src", ST_FN(scatter_src));
  m.impl("scatter_.src", ST_FN(scatter_src_));
  m.impl("scatter.src_out", ST_FN(scatter_src_out));
  m.impl("scatter.value", ST_FN(scatter_value));
  m.impl("scatter_.value", ST_FN(scatter_value_));
  m.impl("scatter.value_out", ST_FN(scatter_value_out));
  m.impl("masked_select", ST_FN(masked_select));
  m.impl("masked_select.out", ST_FN(masked_select_out));
  m.impl("nonzero", ST_FN(nonzero));
  m.impl("nonzero.out", ST_FN(nonzero_out));
  m.impl("index.Tensor", ST_FN(index_tensor));
  m.impl("index.Tensor_out", ST_FN(index_tensor_out));
  m.impl("sort.stable", ST_FN(sort_stable));
  m.impl("sort.values_stable", ST_FN(sort_values_stable));
  m.impl("topk", ST_FN(topk));
  m.impl("topk.values", ST_FN(topk_values));
}

#undef ST_CUDA_UNARY
#undef ST_CUDA_BINARY
#undef ST_CUDA_LOGICAL_REDUCE
