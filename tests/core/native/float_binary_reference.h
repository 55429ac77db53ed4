// PyTorch's scalar definitions of the float32 binary operators, written out
// plainly: the reference that the kernels' vector and scalar paths are
// compared with, bit for bit (test_binary_ops.cpp, cpu/test_vec_math.cpp).
#pragma once

#include <cmath>

namespace st_native_test {

inline float remainder_ref(float a, float b) {
  float m = std::fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}

inline float floor_divide_ref(float a, float b) {
  if (b == 0) return a / b;
  const float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  if (div == 0) return std::copysign(0.0f, a / b);
  float fl = std::floor(div);
  if (div - fl > 0.5f) fl += 1;
  return fl;
}

inline float trunc_divide_ref(float a, float b) { return std::trunc(a / b); }

// A NaN wins, whichever side it is on (b's when both are); a tie keeps a.
inline float maximum_ref(float a, float b) {
  if (std::isnan(b)) return b;
  if (std::isnan(a)) return a;
  return a < b ? b : a;
}

inline float minimum_ref(float a, float b) {
  if (std::isnan(b)) return b;
  if (std::isnan(a)) return a;
  return b < a ? b : a;
}

}  // namespace st_native_test
