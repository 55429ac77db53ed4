// Dtype dispatch: run one generic lambda with `scalar_t` bound to the C++
// type of a runtime ScalarType.
//
//   THO_DISPATCH_SWITCH(t.scalar_type(), "my_kernel",
//       THO_DISPATCH_CASE(ScalarType::Float, [&] { kernel<scalar_t>(t); })
//       THO_DISPATCH_CASE(ScalarType::Double, [&] { kernel<scalar_t>(t); }));
//
// THO_DISPATCH_SWITCH evaluates its TYPE once and yields the lambda's result
// (every case must return the same type). A dtype with no case throws
// std::runtime_error: "my_kernel" not implemented for 'Half'.
// Each macro is a single expression, so `if (c) THO_DISPATCH_SWITCH(...);
// else ...` needs no braces.
//
// The *_TMPL forms let a project build its own switch and case macros (a
// prelude per switch or per case, another error macro), as PyTorch's do;
// Dispatch_v2.h accepts such custom macros too.
#pragma once

#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>

// Discards its arguments: the "no prelude" argument of the *_TMPL macros.
#define THO_EMPTY(...)

// One `case` of a dispatch switch: binds HINT to the C++ type of enum_type
// and returns the result of calling the lambda passed as `...`.
// PRELUDE(enum_type) runs first (THO_EMPTY for none).
#define THO_PRIVATE_CASE_TYPE_USING_HINT_TMPL(PRELUDE, enum_type, HINT, ...)            \
  case enum_type: {                                                                     \
    PRELUDE(enum_type);                                                                 \
    using HINT [[maybe_unused]] = ::torch::headeronly::ScalarTypeToCPPTypeT<enum_type>; \
    return __VA_ARGS__();                                                               \
  }

// A case whose type alias is spelled `scalar_t`, built from a custom
// CASE_TYPE_USING_HINT(enum_type, HINT, lambda) macro.
#define THO_DISPATCH_CASE_TMPL(CASE_TYPE_USING_HINT, enum_type, ...) \
  CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)

// The switch itself, as an immediately invoked lambda so that it is one
// expression. PRELUDE(name, dtype) runs before the switch;
// CHECK_NOT_IMPLEMENTED(false, message parts...) must throw for a dtype
// with no case. The `tho_dispatch_` names are local to the lambda, so
// nested switches do not clash (the inner ones shadow the outer ones).
#define THO_DISPATCH_SWITCH_TMPL(PRELUDE, CHECK_NOT_IMPLEMENTED, TYPE, NAME, ...)         \
  [&] {                                                                                   \
    const ::torch::headeronly::ScalarType tho_dispatch_dtype_ = (TYPE);                   \
    const char* tho_dispatch_name_ = (NAME);                                              \
    PRELUDE(tho_dispatch_name_, tho_dispatch_dtype_);                                     \
    switch (tho_dispatch_dtype_) {                                                        \
      __VA_ARGS__                                                                         \
      default:                                                                            \
        CHECK_NOT_IMPLEMENTED(false, '"', tho_dispatch_name_, "\" not implemented for '", \
                              ::torch::headeronly::toString(tho_dispatch_dtype_), "'");   \
    }                                                                                     \
  }()

#define THO_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...) \
  THO_PRIVATE_CASE_TYPE_USING_HINT_TMPL(THO_EMPTY, enum_type, HINT, __VA_ARGS__)

// THO_DISPATCH_SWITCH(TYPE, NAME, cases...): the message of an unhandled
// dtype is only the label and the dtype (STD_TORCH_CHECK_MSG adds the call
// site), not an "Expected false to be true" preamble.
#define THO_DISPATCH_SWITCH(TYPE, NAME, ...) \
  THO_DISPATCH_SWITCH_TMPL(THO_EMPTY, STD_TORCH_CHECK_MSG, TYPE, NAME, __VA_ARGS__)

// THO_DISPATCH_CASE(enum_type, lambda): a case binding `scalar_t`.
#define THO_DISPATCH_CASE(enum_type, ...) \
  THO_DISPATCH_CASE_TMPL(THO_PRIVATE_CASE_TYPE_USING_HINT, enum_type, __VA_ARGS__)
