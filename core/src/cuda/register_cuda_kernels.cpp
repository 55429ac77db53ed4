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
#include <st/dispatch/library.h>
#include <st/generated/native_kernels.h>

#include "cuda_ops.h"

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

}  // namespace
}  // namespace st::cuda

// The unary families: name, name_, name.out.
#define ST_CUDA_UNARY(m, op, str)                                                  \
  m.impl(#str, ST_FN((st::cuda::unary_fn<st::cuda::Unary::op, st::cuda::k##op>)));   \
  m.impl(#str "_", ST_FN((st::cuda::unary_fn_<st::cuda::Unary::op, st::cuda::k##op>))); \
  m.impl(#str ".out", ST_FN((st::cuda::unary_fn_out<st::cuda::Unary::op, st::cuda::k##op>)))

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

  m.impl("sum.dim_IntList", ST_FN(sum_dim));
  m.impl("mean.dim", ST_FN(mean_dim));
  m.impl("amax", ST_FN(amax));
  m.impl("amin", ST_FN(amin));

  m.impl("arange.start_out", ST_FN(arange_start_out));
  m.impl("rand", ST_FN(rand_kernel));
  m.impl("randn", ST_FN(randn_kernel));

  m.impl("cat", ST_FN(cat));
  m.impl("index_select", ST_FN(index_select));
  m.impl("mm", ST_FN(mm));
  m.impl("bmm", ST_FN(bmm));
  m.impl("addmm", ST_FN(addmm));
}

#undef ST_CUDA_UNARY
