// Turning command-line words into operator arguments, by schema type.
//
//   Tensor       KIND:SHAPE[:DTYPE]  KIND = randn | rand | zeros | ones |
//                arange | randint | mask; SHAPE = 2x3, 6 or scalar;
//                DTYPE = float32 (default), float64, int64, bool, ...
//   int, float   5, 2.5            bool   true | false
//   str          any text          Scalar 5 | 2.5 | true
//   ScalarType   float32, int64, ...       Device  cpu | cuda:0 | ...
//   T[]          [a,b,c] or a,b,c          T?      none | a value of T
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <st/dispatch/function_schema.h>
#include <st/dispatch/ivalue.h>

namespace st::cli {

// Parses `text` as a value of `type`; `arg` names the argument in errors.
// Throws st::Error ("argument 'x' (Tensor): expected KIND:SHAPE[:DTYPE],
// got 'foo'").
IValue parse_value(const SchemaType& type, std::string_view text, const std::string& arg,
                   uint64_t seed);

// The value of a schema default for an argument of `type`.
IValue default_value(const SchemaType& type, const DefaultValue& d);

// A dtype from its Python spelling (float32, float, int64, long, bool, ...).
torch::headeronly::ScalarType parse_dtype(std::string_view name);

}  // namespace st::cli
