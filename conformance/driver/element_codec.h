// Reading and writing one tensor element of a given dtype as text, and the
// deterministic values the driver fills input tensors with. Both runtimes
// see the same bytes for the same case because the fill depends only on
// the case's seed.
#ifndef STABLETORCH_CONFORMANCE_ELEMENT_CODEC_H
#define STABLETORCH_CONFORMANCE_ELEMENT_CODEC_H

#include <cstdint>
#include <string>

namespace conformance {

// Bytes of one element of the dtype named `name` ("f32", "b", ...); 0 if
// the driver cannot read that dtype.
int element_size(const std::string& name);

// Writes the value derived from `random` (any 64-bit number) into `out`.
// `kind`: 'r' mixed signs, 'p' strictly positive, 's' small integers in
// [-3, 3] (as any dtype), 'u' in [0, 1).
void write_element(const std::string& name, char kind, uint64_t random, void* out);

// The element at `in` as text: integers in decimal, bool as 0/1, floating
// values with enough digits to round-trip ("nan", "inf", "-inf").
std::string read_element(const std::string& name, const void* in);

}  // namespace conformance

#endif  // STABLETORCH_CONFORMANCE_ELEMENT_CODEC_H
