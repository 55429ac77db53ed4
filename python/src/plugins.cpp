// Loading operator plugins through the project's loader (the same C entry
// points every host uses), so Python gets the loader's verdict: a plugin
// that targets a newer ABI level, or that fails its checks, is refused with
// the loader's message before any of its code runs.
#include <string>

#include <nanobind/stl/string.h>

#include <stabletorch/c/loader.h>

#include "bindings.h"

// The C ABI's last-error getter. Its shim.h declaration is gated on the
// extension's target level; a host like this one (and tools/stabletorch)
// always has the current core, so it declares it directly.
extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace stpy {
namespace {

[[noreturn]] void raise_last_error(const std::string& what) {
  const char* msg = torch_exception_get_what_without_backtrace();
  throw std::runtime_error(what + ": " + (msg != nullptr && *msg ? msg : "unknown error"));
}

// One reference on a loaded plugin; unload() (or the last reference going
// away at exit, never implicitly) drops it.
class Plugin {
 public:
  explicit Plugin(std::string path) : path_(std::move(path)) {
    StableTorchPluginHandle h = nullptr;
    AOTITorchError err;
    {
      nb::gil_scoped_release release;
      err = stabletorch_load_library(path_.c_str(), &h);
    }
    if (err != AOTI_TORCH_SUCCESS) raise_last_error("load_library('" + path_ + "')");
    handle_ = h;
  }
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  const std::string& path() const { return path_; }
  bool loaded() const { return handle_ != nullptr; }

  std::string report() const {
    const char* text = nullptr;
    if (stabletorch_plugin_report(live(), &text) != AOTI_TORCH_SUCCESS) {
      raise_last_error("plugin report");
    }
    return text != nullptr ? text : "";
  }

  nb::tuple counts() const {
    int64_t ops = 0, kernels = 0;
    if (stabletorch_plugin_counts(live(), &ops, &kernels) != AOTI_TORCH_SUCCESS) {
      raise_last_error("plugin counts");
    }
    return nb::make_tuple(ops, kernels);
  }

  void unload() {
    AOTITorchError err;
    {
      nb::gil_scoped_release release;
      err = stabletorch_unload_library(live());
    }
    if (err != AOTI_TORCH_SUCCESS) raise_last_error("unload_library('" + path_ + "')");
    handle_ = nullptr;
  }

 private:
  StableTorchPluginHandle live() const {
    if (handle_ == nullptr) {
      throw std::runtime_error("plugin '" + path_ + "' has been unloaded");
    }
    return handle_;
  }

  std::string path_;
  StableTorchPluginHandle handle_ = nullptr;
};

}  // namespace

void bind_plugins(nb::module_& m) {
  nb::class_<Plugin>(m, "Plugin")
      .def(nb::init<std::string>(), nb::arg("path"))
      .def_prop_ro("path", &Plugin::path)
      .def_prop_ro("loaded", &Plugin::loaded)
      .def_prop_ro("report", &Plugin::report)
      .def_prop_ro("counts", &Plugin::counts)
      .def("unload", &Plugin::unload);
}

}  // namespace stpy
