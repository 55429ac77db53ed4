#include "c_api_test_util.h"

#include <cstring>

#include <st/dispatch/dispatcher.h>

namespace stc_test {

AtenTensorHandle make_tensor(std::vector<int64_t> sizes, int32_t dtype) {
  AtenTensorHandle t = nullptr;
  EXPECT_EQ(aoti_torch_empty_strided(static_cast<int64_t>(sizes.size()), sizes.data(), nullptr,
                                     dtype, aoti_torch_device_type_cpu(), 0, &t),
            AOTI_TORCH_SUCCESS)
      << last_error();
  int64_t n = 0;
  aoti_torch_get_numel(t, &n);
  void* p = nullptr;
  aoti_torch_get_data_ptr(t, &p);
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == aoti_torch_dtype_float32()) static_cast<float*>(p)[i] = static_cast<float>(i);
    if (dtype == aoti_torch_dtype_int64()) static_cast<int64_t*>(p)[i] = i;
  }
  return t;
}

AtenTensorHandle make_floats(std::vector<float> values) {
  AtenTensorHandle t = make_tensor({static_cast<int64_t>(values.size())});
  void* p = nullptr;
  aoti_torch_get_data_ptr(t, &p);
  if (!values.empty()) std::memcpy(p, values.data(), values.size() * sizeof(float));
  return t;
}

std::vector<float> read_floats(AtenTensorHandle t) {
  int64_t n = 0;
  EXPECT_EQ(aoti_torch_get_numel(t, &n), AOTI_TORCH_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aoti_torch_get_data_ptr(t, &p), AOTI_TORCH_SUCCESS);
  std::vector<float> out(static_cast<size_t>(n));
  if (n > 0) std::memcpy(out.data(), p, out.size() * sizeof(float));
  return out;
}

AtenTensorHandle deleted_tensor() {
  AtenTensorHandle t = nullptr;
  EXPECT_EQ(aoti_torch_new_uninitialized_tensor(&t), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(aoti_torch_delete_tensor_object(t), AOTI_TORCH_SUCCESS);
  return t;
}

bool has_op(const char* name, const char* overload) {
  return st::Dispatcher::singleton().findSchema(st::OperatorName(name, overload)).has_value();
}

}  // namespace stc_test
