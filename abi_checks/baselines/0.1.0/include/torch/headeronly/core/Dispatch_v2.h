// Dtype dispatch over lists of dtypes:
//
//   THO_DISPATCH_V2(t.scalar_type(), "my_kernel",
//                   AT_WRAP([&] { kernel<scalar_t>(t); }),
//                   AT_EXPAND(AT_FLOATING_TYPES), kHalf, kBFloat16);
//
// After the label and the body come any mix of type sets (below) and single
// ScalarType constants; each becomes one THO_DISPATCH_CASE of a
// THO_DISPATCH_SWITCH (Dispatch.h), so the behaviour is that of the switch:
// TYPE evaluated once, the body's result returned, an unhandled dtype throws
// std::runtime_error naming the label and the dtype, and a dtype listed
// twice is a compile error (duplicate case). Wrap the body in AT_WRAP so
// that commas inside it do not split macro arguments.
#pragma once

#include <torch/headeronly/core/Dispatch.h>
#include <torch/headeronly/core/ScalarType.h>

// THO_DISPATCH_V2_TMPL(DISPATCH_SWITCH, DISPATCH_CASE, TYPE, NAME, BODY,
// dtypes...): THO_DISPATCH_V2 with a custom switch and case macro (made with
// THO_DISPATCH_SWITCH_TMPL / THO_DISPATCH_CASE_TMPL). The body is passed
// on in parentheses, which keeps its commas together and still calls it.
#define THO_DISPATCH_V2_TMPL(DISPATCH_SWITCH, DISPATCH_CASE, TYPE, NAME, BODY, \
                             ...)                                              \
  DISPATCH_SWITCH(TYPE, NAME,                                                  \
                  THO_DV2_FOR_EACH_(DISPATCH_CASE, (BODY), __VA_ARGS__))

// (Not written as a call of THO_DISPATCH_V2_TMPL: BODY must be put in
// parentheses at its first substitution, before its commas can split it.)
#define THO_DISPATCH_V2(TYPE, NAME, BODY, ...) \
  THO_DISPATCH_SWITCH(                         \
      TYPE, NAME,                              \
      THO_DV2_FOR_EACH_(THO_DISPATCH_CASE, (BODY), __VA_ARGS__))

// Passes an argument containing commas as one macro argument.
#define AT_WRAP(...) __VA_ARGS__
// Expands a type set where a single argument is expected.
#define AT_EXPAND(X) X

// Type sets, with PyTorch's contents (and order).
#define AT_FLOATING_TYPES                  \
  ::torch::headeronly::ScalarType::Double, \
      ::torch::headeronly::ScalarType::Float
#define AT_INTEGRAL_TYPES                     \
  ::torch::headeronly::ScalarType::Byte,      \
      ::torch::headeronly::ScalarType::Char,  \
      ::torch::headeronly::ScalarType::Int,   \
      ::torch::headeronly::ScalarType::Long,  \
      ::torch::headeronly::ScalarType::Short
#define AT_BAREBONES_UNSIGNED_TYPES          \
  ::torch::headeronly::ScalarType::UInt16,   \
      ::torch::headeronly::ScalarType::UInt32, \
      ::torch::headeronly::ScalarType::UInt64
#define AT_INTEGRAL_TYPES_V2 \
  AT_EXPAND(AT_INTEGRAL_TYPES), AT_EXPAND(AT_BAREBONES_UNSIGNED_TYPES)
#define AT_COMPLEX_TYPES                          \
  ::torch::headeronly::ScalarType::ComplexDouble, \
      ::torch::headeronly::ScalarType::ComplexFloat
#define AT_QINT_TYPES                          \
  ::torch::headeronly::ScalarType::QInt8,      \
      ::torch::headeronly::ScalarType::QUInt8, \
      ::torch::headeronly::ScalarType::QInt32
#define AT_FLOAT8_TYPES                                  \
  ::torch::headeronly::ScalarType::Float8_e5m2,          \
      ::torch::headeronly::ScalarType::Float8_e5m2fnuz,  \
      ::torch::headeronly::ScalarType::Float8_e4m3fn,    \
      ::torch::headeronly::ScalarType::Float8_e4m3fnuz,  \
      ::torch::headeronly::ScalarType::Float8_e8m0fnu
// As in PyTorch, "all" means integral + floating: no Bool, Half, BFloat16.
#define AT_ALL_TYPES AT_EXPAND(AT_INTEGRAL_TYPES), AT_EXPAND(AT_FLOATING_TYPES)
#define AT_ALL_TYPES_AND_COMPLEX \
  AT_EXPAND(AT_ALL_TYPES), AT_EXPAND(AT_COMPLEX_TYPES)

// Note [Dispatch_v2 type-list expansion]
// THO_DV2_FOR_EACH_(C, B, x1, ..., xn) expands to C(x1, B) ... C(xn, B).
// Rather than one generated macro per list length, it peels one element per
// step and recurses:
//  * The list is closed with two `()` sentinels. An element is a dtype
//    constant, never parenthesized, so THO_DV2_IS_PAREN_ (1 only for `()`)
//    tells the end; the second sentinel keeps `...` non-empty at every step
//    (an empty `...` is not ISO C++17).
//  * A macro cannot expand inside its own expansion, so a step names the
//    next one indirectly (THO_DV2_NEXT_) and defers it by two scans
//    (THO_DV2_EMPTY_ twice): the step's own expansion ends first, and the
//    next scan performs the next step.
//  * THO_DV2_SCAN_ supplies those scans: 81 nested rescans, which handle
//    lists of up to 122 elements (more than twice the number of dtypes).
//    A longer list leaves THO_DV2_NEXT_ in the output: a compile error.
// These helpers stay defined: they run where THO_DISPATCH_V2 is used.
#define THO_DV2_FOR_EACH_(C, B, ...) \
  THO_DV2_SCAN_(THO_DV2_STEP_(C, B, __VA_ARGS__, (), ()))
#define THO_DV2_STEP_(C, B, x, ...)                             \
  THO_DV2_CAT_(THO_DV2_IF_, THO_DV2_IS_PAREN_(x))(              \
      /* end of list: nothing */,                               \
      C(x, B) THO_DV2_NEXT_ THO_DV2_EMPTY_ THO_DV2_EMPTY_()()() \
          (C, B, __VA_ARGS__))
#define THO_DV2_NEXT_() THO_DV2_STEP_
#define THO_DV2_EMPTY_()
#define THO_DV2_IF_1(then_, else_) then_
#define THO_DV2_IF_0(then_, else_) else_
#define THO_DV2_CAT_(a, b) THO_DV2_CAT_I_(a, b)
#define THO_DV2_CAT_I_(a, b) a##b
#define THO_DV2_IS_PAREN_(x) THO_DV2_SECOND_(THO_DV2_PAREN_PROBE_ x, 0, ~)
#define THO_DV2_PAREN_PROBE_(...) ~, 1
#define THO_DV2_SECOND_(...) THO_DV2_SECOND_I_(__VA_ARGS__)
#define THO_DV2_SECOND_I_(a, b, ...) b
#define THO_DV2_SCAN_(...) \
  THO_DV2_SCAN27_(THO_DV2_SCAN27_(THO_DV2_SCAN27_(__VA_ARGS__)))
#define THO_DV2_SCAN27_(...) \
  THO_DV2_SCAN9_(THO_DV2_SCAN9_(THO_DV2_SCAN9_(__VA_ARGS__)))
#define THO_DV2_SCAN9_(...) \
  THO_DV2_SCAN3_(THO_DV2_SCAN3_(THO_DV2_SCAN3_(__VA_ARGS__)))
#define THO_DV2_SCAN3_(...) \
  THO_DV2_SCAN1_(THO_DV2_SCAN1_(THO_DV2_SCAN1_(__VA_ARGS__)))
#define THO_DV2_SCAN1_(...) __VA_ARGS__
