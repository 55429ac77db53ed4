// aten::is_leaf. The core has no autograd: no tensor requires grad, so
// every tensor is a leaf (PyTorch: true for tensors that do not require
// grad). Stable extensions call it through the dispatcher.
#include <st/generated/native_kernels.h>

namespace st::native {

bool is_leaf(const Tensor& /*self*/) { return true; }

}  // namespace st::native
