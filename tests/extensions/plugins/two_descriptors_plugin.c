/* Carries two descriptors in its descriptor section, one targeting 2.10
 * (this core's level) and one a future 2.99, and aborts the process if any
 * of its code runs: the loader must count them and refuse the plugin from
 * the file alone, judging the higher level. */
#include <stdlib.h>

#include <stabletorch/c/plugin_descriptor.h>

#define TARGET_2_10 ((2ULL << 56) | (10ULL << 48))
#define TARGET_2_99 ((2ULL << 56) | (99ULL << 48))

__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor current_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    TARGET_2_10,
    TARGET_2_10,
    100,
    0};

__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor future_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    TARGET_2_99,
    TARGET_2_99,
    9900,
    0};

__attribute__((constructor)) static void never_run(void) { abort(); }
