#include "device/backend_module.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace st::detail {
namespace {

enum State : int { kUntried, kLoaded, kFailed };

struct BackendModule {
  BackendModule(DeviceType t, const char* b, const char* f) : type(t), backend(b), file(f) {}

  DeviceType type;
  const char* backend;  // as PyTorch names it in "<backend> is not available"
  const char* file;     // next to libstabletorch_core
  std::atomic<int> state{kUntried};
  std::mutex error_mutex;  // guards error
  std::string error;
};

#ifdef STABLETORCH_CUDA_MODULE
BackendModule g_cuda{DeviceType::CUDA, "CUDA", STABLETORCH_CUDA_MODULE};
#endif

BackendModule* module_of(DeviceType type) noexcept {
#ifdef STABLETORCH_CUDA_MODULE
  if (type == DeviceType::CUDA) return &g_cuda;
#else
  (void)type;
#endif
  return nullptr;
}

// Set while this thread is inside dlopen of a module: the module's
// initializers register with the core, which asks for the module again.
thread_local bool t_loading = false;

// The directory of this library (libstabletorch_core), with a trailing
// slash; empty when the dynamic loader cannot say (the module is then
// looked up by name alone).
std::string core_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&core_directory), &info) == 0 ||
      info.dli_fname == nullptr) {
    return std::string();
  }
  const std::string path(info.dli_fname);
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

void record_failure(BackendModule& m, const std::string& why) noexcept {
  try {
    std::lock_guard<std::mutex> lock(m.error_mutex);
    if (m.error.empty()) m.error = std::string(m.backend) + " is not available: " + why;
  } catch (...) {
    // Out of memory for the message: the state below still says "failed".
  }
  m.state.store(kFailed, std::memory_order_release);
}

bool load_slow(BackendModule& m) noexcept {
  if (t_loading) return true;
  std::string path;
  try {
    path = core_directory() + m.file;
  } catch (...) {
    record_failure(m, "out of memory while locating its module");
    return false;
  }
  t_loading = true;
  // RTLD_NODELETE: tensors, streams and registrations refer to the module
  // until the process ends.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  t_loading = false;
  if (handle == nullptr) {
    const char* why = dlerror();
    try {
      record_failure(m, "cannot load its backend module " + path + ": " +
                            (why != nullptr ? why : "unknown dynamic loader error"));
    } catch (...) {
      record_failure(m, "cannot load its backend module");
    }
    return false;
  }
  m.state.store(kLoaded, std::memory_order_release);
  return true;
}

}  // namespace

bool load_backend_module(DeviceType type) noexcept {
  BackendModule* m = module_of(type);
  if (m == nullptr) return false;
  const int state = m->state.load(std::memory_order_acquire);
  if (__builtin_expect(state != kUntried, 1)) return state == kLoaded;
  return load_slow(*m);
}

std::optional<DeviceType> backend_module_type(DispatchKey key) noexcept {
  if (key == DispatchKey::CUDA && module_of(DeviceType::CUDA) != nullptr) return DeviceType::CUDA;
  return std::nullopt;
}

bool has_backend_module(DeviceType type) noexcept { return module_of(type) != nullptr; }

bool backend_module_loaded(DeviceType type) noexcept {
  const BackendModule* m = module_of(type);
  return m != nullptr && m->state.load(std::memory_order_acquire) == kLoaded;
}

std::string backend_module_error(DeviceType type) {
  BackendModule* m = module_of(type);
  if (m == nullptr || m->state.load(std::memory_order_acquire) != kFailed) return std::string();
  std::lock_guard<std::mutex> lock(m->error_mutex);
  return m->error;
}

}  // namespace st::detail
