/* A plugin that imports C-ABI functions this runtime does not export: one
 * PyTorch declares (level 2.9, AOTInductor's proxy executor), one of no
 * known level, and a stabletorch addition of a future release. Without
 * PLUGIN_DESCRIPTOR_TARGET it carries no descriptor, as a plugin built with
 * PyTorch's headers. It aborts the process if any of its code runs: the
 * loader must refuse it from its imports alone, before dlopen. */
#include <stdlib.h>

#include <stabletorch/c/plugin_descriptor.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#ifdef PLUGIN_DESCRIPTOR_TARGET
__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor plugin_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    PLUGIN_DESCRIPTOR_TARGET,
    PLUGIN_DESCRIPTOR_TARGET,
    100,
    0};
#endif

/* Declared here only: nothing this suite links defines them. */
extern AOTITorchError aoti_torch_proxy_executor_call_function(void);
extern AOTITorchError torch_function_of_no_known_level(void);
extern AOTITorchError stabletorch_addition_of_a_future_release(void);

__attribute__((constructor)) static void never_run(void) {
  TorchLibraryHandle lib = NULL;
  (void)aoti_torch_library_init_fragment("missing_imports", __FILE__, __LINE__, &lib);
  (void)aoti_torch_proxy_executor_call_function();
  (void)torch_function_of_no_known_level();
  (void)stabletorch_addition_of_a_future_release();
  abort();
}
