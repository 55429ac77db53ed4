/* A shared object whose ELF contents test_elf_file.cpp knows exactly: two
 * plugin descriptors in the descriptor section (2.10 then 2.9), one
 * exported function, one strong and one weak undefined symbol, and a
 * hidden function that must not appear among the exports. Never loaded:
 * its strong import is defined nowhere. */
#include <stabletorch/c/plugin_descriptor.h>

#define TARGET_2_10 ((2ULL << 56) | (10ULL << 48))
#define TARGET_2_9 ((2ULL << 56) | (9ULL << 48))

__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor first_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    TARGET_2_10,
    TARGET_2_10,
    100,
    0};

__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor second_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    TARGET_2_9,
    TARGET_2_9,
    90,
    0};

extern int elf_sample_strong_import(int x);
extern void elf_sample_weak_import(void) __attribute__((weak));

static int elf_sample_hidden(int x) { return x + 1; }

__attribute__((visibility("default"))) int elf_sample_export(int x) {
  if (elf_sample_weak_import) elf_sample_weak_import();
  return elf_sample_strong_import(elf_sample_hidden(x));
}
