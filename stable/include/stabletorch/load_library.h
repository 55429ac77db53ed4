// st::load_library(path): the C++ face of the plugin loader
// (stabletorch/c/loader.h) for host applications. Header-only over the C
// ABI, so a host needs only libstabletorch.
//
//   st::Plugin p = st::load_library("libsample_op.so");   // throws on refusal
//   std::cout << p.report();
//   p.unload();                  // or let the destructor do it
//
// A Plugin owns one reference to a loaded plugin; moving transfers it.
// unload() throws with the core's reason when unloading is refused (e.g.
// tensors whose deleters live in the plugin are still alive) and then keeps
// the reference. The destructor never throws: if unloading is refused
// there, it writes the reason to stderr and leaves the plugin loaded (a
// leak is safe; calling into unmapped code would not be).
#pragma once

#include <stabletorch/c/loader.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/macros/Macros.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

// In the core's namespace `st` (a host may include core headers too, so the
// namespace itself keeps default visibility): each entity is hidden.
namespace st {

class C10_HIDDEN_ATTR_ Plugin {
 public:
  Plugin() noexcept = default;
  // Takes over one reference.
  explicit Plugin(StableTorchPluginHandle handle) noexcept : handle_(handle) {}
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;
  Plugin(Plugin&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Plugin& operator=(Plugin&& other) noexcept {
    if (this != &other) {
      release_quietly();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Plugin() { release_quietly(); }

  bool loaded() const noexcept { return handle_ != nullptr; }
  StableTorchPluginHandle get() const noexcept { return handle_; }

  // Drops the reference (the last one unloads the plugin). Throws, keeping
  // the reference, when the core refuses.
  void unload() {
    if (handle_ == nullptr) return;
    if (stabletorch_unload_library(handle_) != AOTI_TORCH_SUCCESS) {
      throw std::runtime_error(torch::stable::detail::last_core_error());
    }
    handle_ = nullptr;
  }

  // The load report: descriptor, operators defined, kernels, notes.
  std::string report() const {
    const char* text = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_plugin_report(checked(), &text));
    return text != nullptr ? std::string(text) : std::string();
  }
  int64_t ops_defined() const { return counts().first; }
  int64_t kernels_registered() const { return counts().second; }

 private:
  StableTorchPluginHandle checked() const {
    if (handle_ == nullptr)
      throw std::runtime_error("st::Plugin: no plugin (unloaded or moved from)");
    return handle_;
  }
  std::pair<int64_t, int64_t> counts() const {
    int64_t ops = 0;
    int64_t kernels = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_plugin_counts(checked(), &ops, &kernels));
    return {ops, kernels};
  }
  void release_quietly() noexcept {
    if (handle_ == nullptr) return;
    if (stabletorch_unload_library(handle_) != AOTI_TORCH_SUCCESS) {
      const std::string why = torch::stable::detail::last_core_error();
      std::fprintf(stderr, "stabletorch: a plugin stays loaded: %s\n", why.c_str());
    }
    handle_ = nullptr;
  }

  StableTorchPluginHandle handle_ = nullptr;
};

// Loads the plugin at path (its registrations run); throws
// std::runtime_error with the loader's reason and the path when refused.
// Loading an already loaded file (under any path) returns another
// reference to it.
C10_HIDDEN_ATTR_ inline Plugin load_library(const std::string& path) {
  StableTorchPluginHandle handle = nullptr;
  if (stabletorch_load_library(path.c_str(), &handle) != AOTI_TORCH_SUCCESS) {
    throw std::runtime_error(torch::stable::detail::last_core_error());
  }
  return Plugin(handle);
}

}  // namespace st
