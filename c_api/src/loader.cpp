// The loader's C functions (stabletorch/c/loader.h) over the plugin
// registry; see Note [Plugin ownership].
#include <stabletorch/c/loader.h>

#include <st/core/error.h>

#include "error_state.h"
#include "loader/plugin_registry.h"

namespace {

StableTorchPluginHandle to_handle(stc::plugins::Plugin* p) {
  return reinterpret_cast<StableTorchPluginHandle>(p);
}

}  // namespace

extern "C" {

AOTITorchError stabletorch_load_library(const char* path, StableTorchPluginHandle* ret_plugin) {
  STC_API_BEGIN
  ST_CHECK(path != nullptr, "path: null");
  ST_CHECK(ret_plugin != nullptr, "ret_plugin: null output pointer");
  *ret_plugin = to_handle(stc::plugins::load(path));
  STC_API_END
}

AOTITorchError stabletorch_unload_library(StableTorchPluginHandle plugin) {
  STC_API_BEGIN
  stc::plugins::unload(stc::plugins::checked(plugin, "plugin"));
  STC_API_END
}

AOTITorchError stabletorch_plugin_report(StableTorchPluginHandle plugin, const char** ret_report) {
  STC_API_BEGIN
  ST_CHECK(ret_report != nullptr, "ret_report: null output pointer");
  *ret_report = stc::plugins::report(stc::plugins::checked(plugin, "plugin")).c_str();
  STC_API_END
}

AOTITorchError stabletorch_plugin_counts(StableTorchPluginHandle plugin, int64_t* ret_ops_defined,
                                         int64_t* ret_kernels_registered) {
  STC_API_BEGIN
  ST_CHECK(ret_ops_defined != nullptr && ret_kernels_registered != nullptr,
           "ret_ops_defined/ret_kernels_registered: null output pointer");
  stc::plugins::counts(stc::plugins::checked(plugin, "plugin"), ret_ops_defined,
                       ret_kernels_registered);
  STC_API_END
}

}  // extern "C"
