// The smallest real plugin: built with stabletorch_add_extension() against
// the stable C++ SDK, it must link libstabletorch and nothing else (check 4)
// and import only C-ABI functions (check 7), whatever inline code of the
// SDK it instantiates. abi_checks/CMakeLists.txt also compiles it with every
// public stable header included (tiny_plugin_all_headers.cpp, once the
// SDK has library.h).
//
// abi_tiny::numel_plus(Tensor x, int k) -> int   returns x.numel() + k
#include <torch/csrc/stable/c/shim.h>

#include <cstring>

// The C++ SDK is used once it is complete (library.h is its last piece);
// until then the plugin registers through the C ABI, which still proves
// the linking rules of stabletorch_add_extension().
#if __has_include(<torch/csrc/stable/library.h>)
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>
#define ABI_TINY_HAVE_STABLE_TENSOR 1
#define ABI_TINY_HAVE_STABLE_LIBRARY 1
#endif

namespace {

#if defined(ABI_TINY_HAVE_STABLE_TENSOR)
int64_t numel_plus(torch::stable::Tensor x, int64_t k) { return x.numel() + k; }
#else
int64_t numel_plus(AtenTensorHandle x, int64_t k) {
  int64_t n = 0;
  aoti_torch_get_numel(x, &n);
  aoti_torch_delete_tensor_object(x);
  return n + k;
}
#endif

}  // namespace

#if defined(ABI_TINY_HAVE_STABLE_LIBRARY)
STABLE_TORCH_LIBRARY(abi_tiny, m) { m.def("numel_plus(Tensor x, int k) -> int"); }
STABLE_TORCH_LIBRARY_IMPL(abi_tiny, CPU, m) { m.impl("numel_plus", TORCH_BOX(&numel_plus)); }
#else
namespace {

void numel_plus_boxed(StableIValue* stack, uint64_t, uint64_t) {
  AtenTensorHandle x;
  std::memcpy(&x, &stack[0], sizeof(x));
  int64_t k;
  std::memcpy(&k, &stack[1], sizeof(k));
#if defined(ABI_TINY_HAVE_STABLE_TENSOR)
  int64_t r = numel_plus(torch::stable::Tensor(x), k);
#else
  int64_t r = numel_plus(x, k);
#endif
  std::memcpy(&stack[0], &r, sizeof(r));
}

struct Registration {
  TorchLibraryHandle def = nullptr;
  TorchLibraryHandle impl = nullptr;
  Registration() {
    aoti_torch_library_init_def("abi_tiny", __FILE__, __LINE__, &def);
    aoti_torch_library_def(def, "numel_plus(Tensor x, int k) -> int");
    aoti_torch_library_init_impl("abi_tiny", "CPU", __FILE__, __LINE__, &impl);
    aoti_torch_library_impl(impl, "numel_plus", &numel_plus_boxed);
  }
  ~Registration() {
    aoti_torch_delete_library_object(impl);
    aoti_torch_delete_library_object(def);
  }
} g_registration;

}  // namespace
#endif
