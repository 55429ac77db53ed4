// Reference helpers shared by the tests of the reduced-precision float
// types (Half, BFloat16, Float8_*): bit access to float, and rounding to
// nearest-even by searching a table of every representable magnitude,
// independently of the headers' bit manipulation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace narrow_float_reference {

inline uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The magnitude code nearest to `a`, ties to the even code. `table` holds
// the magnitudes of codes 0, 1, ... in increasing order and ends with the
// first value past the largest finite one: the last index means overflow.
inline uint32_t nearest_even_code(const std::vector<double>& table, double a) {
  const auto it = std::upper_bound(table.begin(), table.end(), a);
  if (it == table.end()) {
    return static_cast<uint32_t>(table.size() - 1);
  }
  const uint32_t hi = static_cast<uint32_t>(it - table.begin());
  const uint32_t lo = hi - 1;
  const double dlo = a - table[lo];
  const double dhi = table[hi] - a;
  return dlo < dhi ? lo : dhi < dlo ? hi : (lo % 2 == 0 ? lo : hi);
}

// The magnitude of code `mag` (exponent field above `mant_bits` mantissa
// bits) of a binary format with exponent bias `bias`, as if the exponent
// range were unbounded: exponent field 0 is subnormal.
inline double field_value(int mant_bits, int bias, uint32_t mag) {
  const int exp = static_cast<int>(mag >> mant_bits);
  const int mant = static_cast<int>(mag & ((1u << mant_bits) - 1));
  const double frac = std::ldexp(static_cast<double>(mant), -mant_bits);
  if (exp == 0) {
    return std::ldexp(frac, 1 - bias);
  }
  return std::ldexp(1.0 + frac, exp - bias);
}

// The magnitudes of codes 0..max_code, then the overflow threshold (the
// value code max_code + 1 would have): the table nearest_even_code takes.
inline std::vector<double> magnitude_table(int mant_bits, int bias, uint32_t max_code) {
  std::vector<double> v;
  for (uint32_t c = 0; c <= max_code + 1; ++c) {
    v.push_back(field_value(mant_bits, bias, c));
  }
  return v;
}

// Calls check(lo, hi, even, mid, below, above) for every pair of
// neighbouring codes lo, hi = lo + 1 of `table` whose midpoint is exactly a
// float: `even` is the one of the two a tie rounds to, `below` and `above`
// the floats next to the midpoint. Returns how many midpoints were not
// floats (and so not checked).
template <typename Check>
int for_each_float_midpoint(const std::vector<double>& table, Check check) {
  int skipped = 0;
  for (uint32_t lo = 0; lo + 1 < table.size(); ++lo) {
    const uint32_t hi = lo + 1;
    const double mid_d = (table[lo] + table[hi]) / 2;
    if (mid_d > std::numeric_limits<float>::max()) {
      ++skipped;  // converting it to float would be undefined
      continue;
    }
    const float mid = static_cast<float>(mid_d);
    if (static_cast<double>(mid) != mid_d) {
      ++skipped;
      continue;
    }
    check(lo, hi, lo % 2 == 0 ? lo : hi, mid, std::nextafter(mid, 0.0f),
          std::nextafter(mid, INFINITY));
  }
  return skipped;
}

}  // namespace narrow_float_reference
