// The CUDA backend's operations (internal), which the CUDA kernels of
// native_functions.yaml call (cuda_native_functions.cpp and the generated
// cuda_pointwise_kernels.cpp). Each makes the device of its
// tensors current and runs on that device's current stream.
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/native/optional_int_array_ref.h>

#include "kernels/cuda_kernels.h"

namespace st::cuda::ops {

// copies and fills (cuda_copy.cpp)
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking);
Tensor fill_(const Tensor& self, const Scalar& value);
Tensor fill_tensor_(const Tensor& self, const Tensor& value);
Tensor zero_(const Tensor& self);

// pointwise (cuda_pointwise.cpp). `out` is the in-place target (self) or
// the out= tensor; nullopt allocates the result.
//
// The binary launchers (`cuda_pointwise: <launcher>` in
// native_functions.yaml): out = entry(self, other) with PyTorch's
// promotion and broadcasting, each with the host rules of its ops --
// binary: any dtype, the common dtype; binary_alpha: add/sub's alpha;
// binary_float: integers compute in the default float dtype (true
// division); binary_nonbool: refuses bool; binary_divmod: refuses bool,
// integer division by zero raises; binary_compare: a bool result;
// binary_bitwise: integers and bool only; binary_shift: integers only.
Tensor binary(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
              const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_alpha(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const Scalar& alpha, const std::optional<Tensor>& out);
Tensor binary_float(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_nonbool(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_divmod(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                     const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_compare(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_bitwise(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out);
Tensor binary_shift(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const std::optional<Tensor>& out);
// The unary launchers (`cuda_pointwise: <launcher>`): out = entry(self)
// -- unary: any dtype, the input's dtype; unary_nonbool: refuses bool
// (neg, abs, relu); unary_bool: a bool result; unary_bitwise: integers
// only (logical_not on bool).
Tensor unary(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
             const std::optional<Tensor>& out);
Tensor unary_nonbool(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                     const std::optional<Tensor>& out);
Tensor unary_bool(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                  const std::optional<Tensor>& out);
Tensor unary_bitwise(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                     const std::optional<Tensor>& out);
// unary_floating: floating dtypes only, the input's dtype (gelu).
Tensor unary_floating(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                      const std::optional<Tensor>& out);
// A floating function of one tensor through its device entry point
// (Note [CUDA pointwise entry points] in kernels/cuda_kernels.h).
Tensor float_unary(kernels::FloatUnaryEntry* entry, const char* name, const Tensor& self,
                   const std::optional<Tensor>& out);
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf, const std::optional<Tensor>& out);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other,
             const std::optional<Tensor>& out);
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
             const std::optional<Tensor>& out);
Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value);

// reductions (cuda_reduce.cpp)
Tensor reduce(kernels::Reduce op, const char* name, const Tensor& self,
              std::optional<IntArrayRef> dims, bool keepdim, std::optional<ScalarType> dtype);
// max/min along `dim` with indices (values undefined when !want_values:
// argmax/argmin); dim nullopt: over the flattened tensor.
std::tuple<Tensor, Tensor> arg_reduce(bool is_max, const char* name, const Tensor& self,
                                      std::optional<int64_t> dim, bool keepdim, bool want_values);
// var (take_sqrt false) or std over dims with `correction` (default 1).
Tensor var_std(const char* name, const Tensor& self, std::optional<IntArrayRef> dims,
               const std::optional<Scalar>& correction, bool keepdim, bool take_sqrt);

// factories (cuda_factories.cpp)
Tensor arange_out(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out);
Tensor random(bool normal, IntArrayRef size, std::optional<ScalarType> dtype,
              std::optional<Device> device);

// shape ops (cuda_shape_ops.cpp)
Tensor cat(ArrayRef<Tensor> tensors, int64_t dim);
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);

// cuBLAS (cuda_blas_ops.cpp)
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha);
Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha);

// linalg_vector_norm (cuda_norm.cpp)
Tensor vector_norm(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                   bool keepdim, std::optional<ScalarType> dtype);

// dot (cuda_dot.cpp)
Tensor dot(const Tensor& self, const Tensor& tensor);

// _softmax / _log_softmax (cuda_softmax.cpp): `out` is the out= tensor,
// nullopt allocates the result.
Tensor softmax(bool log, const Tensor& self, int64_t dim, bool half_to_float,
               const std::optional<Tensor>& out);

// cumsum (cuda_cumsum.cpp)
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

// flip (cuda_shape_ops.cpp)
Tensor flip(const Tensor& self, IntArrayRef dims);

// gather / scatter (cuda_gather_scatter.cpp). scatter_ writes into self
// from src, or from value when src is null.
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                const Scalar* value);

// masked_select / nonzero (cuda_select.cpp): the result's size is read
// back from the device (one synchronization per call).
Tensor masked_select(const Tensor& self, const Tensor& mask);
Tensor nonzero(const Tensor& self);

// index.Tensor (cuda_index.cpp)
Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices);

// sort / topk (cuda_sort.cpp): values and int64 indices of the first k of
// each stably sorted line along dim (k = the line's length for sort).
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, std::optional<int64_t> k,
                                bool descending, const char* op);

}  // namespace st::cuda::ops
