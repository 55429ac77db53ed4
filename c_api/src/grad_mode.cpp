// Grad mode: a thread-local flag (default enabled, as in PyTorch). The core
// has no autograd; the flag exists so extensions can save and restore it.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace {
bool& grad_mode() noexcept {
  thread_local bool enabled = true;
  return enabled;
}
}  // namespace

extern "C" {

bool aoti_torch_grad_mode_is_enabled(void) { return grad_mode(); }
void aoti_torch_grad_mode_set_enabled(bool enabled) { grad_mode() = enabled; }

}  // extern "C"
