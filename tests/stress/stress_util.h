// Shared by the stress and soak tests: small C-ABI helpers that never
// abort, so a failed call is counted and reported rather than crashing.
#pragma once

#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include <cstdint>
#include <cstring>
#include <string>

extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace st_stress {

inline std::string last_error() {
  const char* what = torch_exception_get_what_without_backtrace();
  return what != nullptr ? what : "";
}

inline StableIValue from_handle(const void* h) {
  StableIValue v = 0;
  std::memcpy(&v, &h, sizeof(h));
  return v;
}

inline AtenTensorHandle to_tensor(StableIValue v) {
  AtenTensorHandle h = nullptr;
  std::memcpy(&h, &v, sizeof(h));
  return h;
}

inline StableIValue from_int(int64_t i) {
  StableIValue v = 0;
  std::memcpy(&v, &i, sizeof(i));
  return v;
}

inline int64_t to_int(StableIValue v) {
  int64_t i = 0;
  std::memcpy(&i, &v, sizeof(i));
  return i;
}

// A contiguous float32 CPU tensor of n elements, all `value`; nullptr on error.
inline AtenTensorHandle make_filled(int64_t n, float value) {
  const int64_t sizes[1] = {n};
  const int64_t strides[1] = {1};
  AtenTensorHandle t = nullptr;
  if (aoti_torch_empty_strided(1, sizes, strides, aoti_torch_dtype_float32(),
                               aoti_torch_device_type_cpu(), 0, &t) != AOTI_TORCH_SUCCESS) {
    return nullptr;
  }
  void* p = nullptr;
  aoti_torch_get_data_ptr(t, &p);
  for (int64_t i = 0; i < n; ++i) static_cast<float*>(p)[i] = value;
  return t;
}

inline AtenTensorHandle new_ref(AtenTensorHandle t) {
  AtenTensorHandle r = nullptr;
  return aoti_torch_new_tensor_handle(t, &r) == AOTI_TORCH_SUCCESS ? r : nullptr;
}

// First element of a float32 tensor (the caller checked its shape).
inline float first_float(AtenTensorHandle t) {
  void* p = nullptr;
  if (aoti_torch_get_data_ptr(t, &p) != AOTI_TORCH_SUCCESS || p == nullptr) return -1.0f;
  return *static_cast<float*>(p);
}

}  // namespace st_stress
