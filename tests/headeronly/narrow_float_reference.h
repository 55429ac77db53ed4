// Reference helpers shared by the tests of the reduced-precision float
// types (Half, BFloat16, Float8_*): bit access to float, and rounding to
// nearest-even by searching a table of every representable magnitude,
// independently of the headers' bit manipulation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
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

} // namespace narrow_float_reference
