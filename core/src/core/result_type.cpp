#include <st/core/result_type.h>

namespace st {
namespace {

using torch::headeronly::isComplexType;
using torch::headeronly::isFloatingType;
using torch::headeronly::promoteTypes;
using torch::headeronly::toComplexType;

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) {
    return b;
  }
  if (b == ScalarType::Undefined) {
    return a;
  }
  try {
    return promoteTypes(a, b);
  } catch (const std::exception& e) {
    ST_ERROR("result_type: ", e.what());
  }
}

// Combines the result of a higher priority class with a lower one: the
// lower class only matters when its category is higher.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (isComplexType(higher)) {
    return higher;
  }
  if (isComplexType(lower)) {
    // Keep the precision of a floating higher class: Float + complex
    // scalar is ComplexFloat.
    if (isFloatingType(higher)) {
      return toComplexType(higher);
    }
    return lower;
  }
  if (isFloatingType(higher)) {
    return higher;
  }
  if (higher == ScalarType::Bool || isFloatingType(lower)) {
    return promote_skip_undefined(higher, lower);
  }
  if (higher != ScalarType::Undefined) {
    return higher;
  }
  return lower;
}

// The dtype a wrapped number contributes: its category's default dtype.
ScalarType wrapped_dtype(ScalarType t) {
  if (isComplexType(t)) {
    return default_complex_dtype();
  }
  if (isFloatingType(t)) {
    return default_dtype();
  }
  return t;
}

}  // namespace

ScalarType default_dtype() noexcept { return ScalarType::Float; }
ScalarType default_complex_dtype() noexcept { return ScalarType::ComplexFloat; }

ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in) {
  if (!tensor.defined()) {
    return in;
  }
  ResultTypeState out = in;
  ScalarType current = tensor.scalar_type();
  const bool wrapped = tensor.unsafeGetTensorImpl()->is_wrapped_number();
  if (wrapped) {
    current = wrapped_dtype(current);
  }
  if (tensor.dim() > 0) {
    out.dimResult = promote_skip_undefined(in.dimResult, current);
  } else if (wrapped) {
    out.wrappedResult = promote_skip_undefined(in.wrappedResult, current);
  } else {
    out.zeroResult = promote_skip_undefined(in.zeroResult, current);
  }
  return out;
}

ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in) {
  ResultTypeState out = in;
  out.wrappedResult = promote_skip_undefined(in.wrappedResult, wrapped_dtype(scalar.type()));
  return out;
}

ScalarType result_type(const ResultTypeState& s) {
  return combine_categories(s.dimResult, combine_categories(s.zeroResult, s.wrappedResult));
}

ScalarType result_type(ArrayRef<Tensor> tensors) {
  ResultTypeState state;
  for (const Tensor& t : tensors) {
    state = update_result_type_state(t, state);
  }
  return result_type(state);
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }

ScalarType result_type(const Scalar& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

}  // namespace st
