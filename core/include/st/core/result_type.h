// PyTorch's result-type rules for mixed operands. Operands fall in three
// priority classes: tensors with dims, zero-dim tensors, and wrapped
// numbers (Scalars and 0-dim tensors marked as wrapped). A lower class only
// changes the result when it is of a higher category (bool < integral <
// floating < complex): add(int_tensor, 2.5) is Float, add(float_tensor,
// double_zero_dim) stays Float.
#pragma once

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {

struct ResultTypeState {
  ScalarType dimResult = ScalarType::Undefined;
  ScalarType zeroResult = ScalarType::Undefined;
  ScalarType wrappedResult = ScalarType::Undefined;
};

// The default dtypes for Python-style numbers (Float / ComplexFloat).
ST_API ScalarType default_dtype() noexcept;
ST_API ScalarType default_complex_dtype() noexcept;

// Folds one operand into the state (undefined tensors are skipped).
ST_API ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in);
ST_API ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in);
ST_API ScalarType result_type(const ResultTypeState& state);

ST_API ScalarType result_type(ArrayRef<Tensor> tensors);
ST_API ScalarType result_type(const Tensor& a, const Tensor& b);
ST_API ScalarType result_type(const Tensor& a, const Scalar& b);
ST_API ScalarType result_type(const Scalar& a, const Tensor& b);
ST_API ScalarType result_type(const Scalar& a, const Scalar& b);

}  // namespace st
