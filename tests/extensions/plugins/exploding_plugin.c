/* Targets a stable-ABI level no core serves yet (2.99) and aborts the
 * process if any of its code ever runs: the loader must refuse it from the
 * descriptor alone, before dlopen. */
#include <stdlib.h>

#include <stabletorch/c/plugin_descriptor.h>

#define TARGET_2_99 ((2ULL << 56) | (99ULL << 48))

__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor plugin_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    TARGET_2_99,
    TARGET_2_99,
    9900,
    0};

__attribute__((constructor)) static void never_run(void) { abort(); }
