// Helpers for the native-function tests: build tensors from lists of
// numbers, read them back as doubles, check error messages.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

#include <st/core/error.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/generated/functions.h>
#include <st/native/dtype_dispatch.h>

#include "error_of.h"

namespace st_native_test {

using st::IntArrayRef;
using st::Scalar;
using st::ScalarType;
using st::Tensor;

using st::testing::error_of;

#define EXPECT_NATIVE_ERROR(stmt, text) EXPECT_ST_ERROR_HAS(stmt, text)

// A contiguous tensor of `shape` holding `values` converted to dtype.
inline Tensor make(const std::vector<double>& values, std::vector<int64_t> shape,
                   ScalarType dtype = ScalarType::Float) {
  Tensor t = st::empty(IntArrayRef(shape), dtype);
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  st::native::dispatch_dtype<st::native::kEverything>(dtype, "make", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data_ptr());
    for (size_t i = 0; i < values.size(); ++i) p[i] = st::native::convert<T>(values[i]);
  });
  return t;
}

inline Tensor make1(const std::vector<double>& values, ScalarType dtype = ScalarType::Float) {
  return make(values, {static_cast<int64_t>(values.size())}, dtype);
}

// The elements of t in row-major order, as doubles (complex: real parts).
inline std::vector<double> values(const Tensor& t) {
  Tensor c = st::contiguous(t);
  std::vector<double> out(static_cast<size_t>(c.numel()));
  st::native::dispatch_dtype<st::native::kEverything>(c.dtype(), "values", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = static_cast<const T*>(c.const_data_ptr());
    for (size_t i = 0; i < out.size(); ++i) out[i] = st::native::convert<double>(p[i]);
  });
  return out;
}

inline std::vector<std::complex<double>> cvalues(const Tensor& t) {
  Tensor c = st::contiguous(t);
  std::vector<std::complex<double>> out(static_cast<size_t>(c.numel()));
  st::native::dispatch_dtype<st::native::kEverything>(c.dtype(), "cvalues", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = static_cast<const T*>(c.const_data_ptr());
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = st::native::convert<std::complex<double>>(p[i]);
  });
  return out;
}

inline std::vector<int64_t> shape(const Tensor& t) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}

inline void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                         double tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
    }
  }
}

}  // namespace st_native_test
