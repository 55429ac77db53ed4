// The host whose start-up bench_process_startup measures: it links the
// core (every aten operator registered by static initializers) and asks
// the dispatcher for one operator before exiting.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include <cstdint>
#include <cstring>

int main() {
  // aten::zero_ on an empty tensor: proves the operator table is there.
  AtenTensorHandle t = nullptr;
  const int64_t size = 0;
  if (aoti_torch_empty_strided(1, &size, nullptr, aoti_torch_dtype_float32(),
                               aoti_torch_device_type_cpu(), -1, &t) != AOTI_TORCH_SUCCESS) {
    return 1;
  }
  StableIValue stack[1];
  std::memcpy(&stack[0], &t, sizeof t);
  if (aoti_torch_call_dispatcher("aten::zero_", "", stack) != AOTI_TORCH_SUCCESS) return 1;
  AtenTensorHandle out = nullptr;
  std::memcpy(&out, &stack[0], sizeof out);
  aoti_torch_delete_tensor_object(out);
  return 0;
}
