// StableScalarHandle (stabletorch addition): a Scalar value for operators
// whose schema takes `Scalar`, which PyTorch's stable ABI cannot pass.
#include <complex>

#include <stabletorch/c/runtime.h>
#include <st/core/scalar.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

StableScalarHandle new_scalar(st::Scalar s) {
  return stc::to_handle<StableScalarHandle>(stc::make_handle<st::Scalar>(s));
}
const st::Scalar& scalar_of(StableScalarHandle h) { return stc::get<st::Scalar>(h, "scalar"); }

const char* kind_word(const st::Scalar& s) {
  switch (s.tag()) {
    case st::Scalar::Tag::Bool:
      return "bool";
    case st::Scalar::Tag::Int:
      return "int";
    case st::Scalar::Tag::Double:
      return "double";
    case st::Scalar::Tag::Complex:
      return "complex";
  }
  return "?";
}

}  // namespace

extern "C" {

AOTITorchError stabletorch_scalar_from_bool(bool value, StableScalarHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = new_scalar(st::Scalar(value));
  STC_API_END
}

AOTITorchError stabletorch_scalar_from_int(int64_t value, StableScalarHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = new_scalar(st::Scalar(value));
  STC_API_END
}

AOTITorchError stabletorch_scalar_from_double(double value, StableScalarHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = new_scalar(st::Scalar(value));
  STC_API_END
}

AOTITorchError stabletorch_scalar_from_complex(double real, double imag, StableScalarHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = new_scalar(st::Scalar(std::complex<double>(real, imag)));
  STC_API_END
}

AOTITorchError stabletorch_scalar_kind(StableScalarHandle scalar, int32_t* ret_kind) {
  STC_API_BEGIN
  stc::check_out(ret_kind, "ret_kind");
  switch (scalar_of(scalar).tag()) {
    case st::Scalar::Tag::Bool:
      *ret_kind = STABLETORCH_SCALAR_BOOL;
      break;
    case st::Scalar::Tag::Int:
      *ret_kind = STABLETORCH_SCALAR_INT;
      break;
    case st::Scalar::Tag::Double:
      *ret_kind = STABLETORCH_SCALAR_DOUBLE;
      break;
    case st::Scalar::Tag::Complex:
      *ret_kind = STABLETORCH_SCALAR_COMPLEX;
      break;
  }
  STC_API_END
}

AOTITorchError stabletorch_scalar_to_bool(StableScalarHandle scalar, bool* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::Scalar& s = scalar_of(scalar);
  ST_CHECK(s.isBoolean(), "scalar: expected a bool scalar but it holds a ", kind_word(s));
  *ret = s.raw_int() != 0;
  STC_API_END
}

AOTITorchError stabletorch_scalar_to_int(StableScalarHandle scalar, int64_t* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::Scalar& s = scalar_of(scalar);
  ST_CHECK(s.tag() == st::Scalar::Tag::Int, "scalar: expected an int scalar but it holds a ",
           kind_word(s));
  *ret = s.raw_int();
  STC_API_END
}

AOTITorchError stabletorch_scalar_to_double(StableScalarHandle scalar, double* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::Scalar& s = scalar_of(scalar);
  ST_CHECK(!s.isComplex(), "scalar: expected a real scalar but it holds a complex");
  *ret = s.to<double>();
  STC_API_END
}

AOTITorchError stabletorch_scalar_to_complex(StableScalarHandle scalar, double* ret_real,
                                             double* ret_imag) {
  STC_API_BEGIN
  stc::check_out(ret_real, "ret_real");
  stc::check_out(ret_imag, "ret_imag");
  const std::complex<double> z = scalar_of(scalar).to<std::complex<double>>();
  *ret_real = z.real();
  *ret_imag = z.imag();
  STC_API_END
}

AOTITorchError stabletorch_delete_scalar(StableScalarHandle scalar) {
  STC_API_BEGIN
  stc::destroy<st::Scalar>(scalar, "scalar");
  STC_API_END
}

}  // extern "C"
