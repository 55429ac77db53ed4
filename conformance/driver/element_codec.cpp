#include "element_codec.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace conformance {
namespace {

uint32_t float_bits(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

float bits_float(uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

// IEEE binary16 <-> binary32, rounding to nearest even. The fill values are
// small and finite, so only normal numbers and zero need to be exact here;
// subnormals, infinities and NaN are still mapped sensibly for reading.
uint16_t float_to_half(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exponent = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
  uint32_t mantissa = x & 0x7fffffu;
  if (((x >> 23) & 0xffu) == 0xffu)
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    const float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t float_to_bfloat16(float f) {
  const uint32_t x = float_bits(f);
  if (std::isnan(f)) return 0x7fc0u;
  const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bfloat16_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

std::string format_double(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", digits, v);
  return text;
}

// The value the fill kind asks for, as a double exactly representable in
// every floating dtype's range the driver writes ('e': the edge values,
// NaN, both infinities and both zeros among them).
double fill_value(char kind, uint64_t random) {
  const double inf = std::numeric_limits<double>::infinity();
  const double edges[] = {std::numeric_limits<double>::quiet_NaN(),
                          -std::numeric_limits<double>::quiet_NaN(),
                          inf,
                          -inf,
                          0.0,
                          -0.0,
                          -2.5,
                          3.0};
  switch (kind) {
    case 'e':
      return edges[random % 8];
    case 'p':
      return static_cast<double>(random % 800 + 1) / 100.0;  // (0, 8]
    case 's':
      return static_cast<double>(static_cast<int64_t>(random % 7) - 3);  // [-3, 3]
    case 'u':
      return static_cast<double>(random % 100) / 100.0;  // [0, 1)
    default:
      return static_cast<double>(static_cast<int64_t>(random % 1601) - 800) / 100.0;  // [-8, 8]
  }
}

int64_t fill_integer(char kind, uint64_t random) {
  const int64_t edges[] = {std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::min() + 1,
                           std::numeric_limits<int64_t>::max(),
                           -1,
                           0,
                           1,
                           -7};
  switch (kind) {
    case 'e':
      return edges[random % 7];
    case 'p':
      return static_cast<int64_t>(random % 10) + 1;
    case 's':
      return static_cast<int64_t>(random % 7) - 3;
    case 'u':
      return static_cast<int64_t>(random % 2);
    default:
      return static_cast<int64_t>(random % 21) - 10;
  }
}

template <typename T>
void store(void* out, T value) {
  std::memcpy(out, &value, sizeof(T));
}

template <typename T>
T load(const void* in) {
  T value{};
  std::memcpy(&value, in, sizeof(T));
  return value;
}

}  // namespace

int element_size(const std::string& name) {
  if (name == "f64" || name == "i64") return 8;
  if (name == "f32" || name == "i32") return 4;
  if (name == "f16" || name == "bf16" || name == "i16") return 2;
  if (name == "i8" || name == "u8" || name == "b") return 1;
  if (name == "f8e8m0" || name == "f4x2") return 1;
  return 0;
}

void write_element(const std::string& name, char kind, uint64_t random, void* out) {
  const double v = fill_value(kind, random);
  const int64_t i = fill_integer(kind, random);
  if (name == "f64")
    store<double>(out, v);
  else if (name == "f32")
    store<float>(out, static_cast<float>(v));
  else if (name == "f16")
    store<uint16_t>(out, float_to_half(static_cast<float>(v)));
  else if (name == "bf16")
    store<uint16_t>(out, float_to_bfloat16(static_cast<float>(v)));
  else if (name == "i64")
    store<int64_t>(out, i);
  else if (name == "i32")
    store<int32_t>(out, static_cast<int32_t>(i));
  else if (name == "i16")
    store<int16_t>(out, static_cast<int16_t>(i));
  else if (name == "i8")
    store<int8_t>(out, static_cast<int8_t>(i));
  else if (name == "u8")
    store<uint8_t>(out, static_cast<uint8_t>(i < 0 ? uint64_t{0} - static_cast<uint64_t>(i)
                                                   : static_cast<uint64_t>(i)));
  else if (name == "b")
    store<uint8_t>(out, static_cast<uint8_t>(random & 1u));
  // Raw bit patterns; e8m0's 0xff (NaN) is left out so that values compare.
  else if (name == "f8e8m0")
    store<uint8_t>(out, static_cast<uint8_t>(random % 255u));
  else if (name == "f4x2")
    store<uint8_t>(out, static_cast<uint8_t>(random & 0xffu));
}

std::string read_element(const std::string& name, const void* in) {
  if (name == "f64") return format_double(load<double>(in), 17);
  if (name == "f32") return format_double(load<float>(in), 9);
  if (name == "f16") return format_double(half_to_float(load<uint16_t>(in)), 9);
  if (name == "bf16") return format_double(bfloat16_to_float(load<uint16_t>(in)), 9);
  if (name == "i64") return std::to_string(load<int64_t>(in));
  if (name == "i32") return std::to_string(load<int32_t>(in));
  if (name == "i16") return std::to_string(load<int16_t>(in));
  if (name == "i8") return std::to_string(load<int8_t>(in));
  if (name == "u8") return std::to_string(load<uint8_t>(in));
  if (name == "b") return load<uint8_t>(in) ? "1" : "0";
  // The bit patterns: exact, and needing no decoder of these formats.
  if (name == "f8e8m0" || name == "f4x2") return "bits" + std::to_string(load<uint8_t>(in));
  return "?";
}

}  // namespace conformance
