// Helpers shared by the core tests: make filled tensors and read elements
// back through sizes/strides without going through the kernels under test.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/tensor.h>

#include "error_of.h"

namespace st::testing {

// A contiguous Float tensor holding 0, 1, 2, ... in row-major order.
inline Tensor arange_float(const std::vector<int64_t>& sizes) {
  Tensor t = detail::empty_generic(sizes, ScalarType::Float, Device("cpu"));
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    p[i] = static_cast<float>(i);
  }
  return t;
}

template <typename T>
Tensor from_values(const std::vector<T>& values, const std::vector<int64_t>& sizes) {
  Tensor t =
      detail::empty_generic(sizes, torch::headeronly::CppTypeToScalarType<T>::value, Device("cpu"));
  auto* out = static_cast<T*>(t.data_ptr());
  for (size_t i = 0; i < values.size(); ++i) {
    out[i] = values[i];  // element-wise: std::vector<bool> has no data()
  }
  return t;
}

// Visits every element in row-major logical order with its byte address.
inline void for_each_element(const Tensor& t, const std::function<void(const char*)>& fn) {
  if (t.numel() == 0) {
    return;
  }
  const int64_t n = t.dim();
  std::vector<int64_t> idx(static_cast<size_t>(n), 0);
  const char* base = static_cast<const char*>(t.const_data_ptr());
  for (int64_t k = 0; k < t.numel(); ++k) {
    int64_t off = 0;
    for (int64_t d = 0; d < n; ++d) {
      off += idx[static_cast<size_t>(d)] * t.stride(d);
    }
    fn(base + off * t.element_size());
    for (int64_t d = n - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < t.size(d)) {
        break;
      }
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

// Float elements in logical order, read through the strides.
inline std::vector<float> float_values(const Tensor& t) {
  std::vector<float> out;
  for_each_element(t, [&](const char* p) {
    float v;
    std::memcpy(&v, p, sizeof(v));
    out.push_back(v);
  });
  return out;
}

// Element at a multi-index, read through the strides.
inline float float_at(const Tensor& t, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    off += idx[d] * t.stride(static_cast<int64_t>(d));
  }
  return t.const_data_ptr<float>()[off];
}

}  // namespace st::testing
