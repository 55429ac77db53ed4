/*
 * The plugin descriptor: a small data-only record that the SDK's
 * registration macros (STABLE_TORCH_LIBRARY & co.) place in every plugin,
 * in an ELF section named STABLETORCH_PLUGIN_SECTION. The loader and
 * `stabletorch inspect` read it from the file BEFORE any of the plugin's
 * code runs (no dlopen), and refuse a plugin that needs a newer stable-ABI
 * level than the running core serves.
 *
 * Layout is part of the ABI: fixed-width fields, explicit padding, little
 * endian as the platform. Add fields only at the end and bump
 * descriptor_size; readers accept any size >= the version-1 size.
 */
#ifndef STABLETORCH_C_PLUGIN_DESCRIPTOR_H
#define STABLETORCH_C_PLUGIN_DESCRIPTOR_H

#include <stdint.h>

#define STABLETORCH_PLUGIN_SECTION "stabletorch_plugin"
#define STABLETORCH_PLUGIN_MAGIC "STABLETORCH-PLUG" /* 16 bytes, no NUL */
#define STABLETORCH_PLUGIN_DESCRIPTOR_VERSION 1

typedef struct StableTorchPluginDescriptor {
  char magic[16];              /* STABLETORCH_PLUGIN_MAGIC */
  uint32_t descriptor_version; /* STABLETORCH_PLUGIN_DESCRIPTOR_VERSION */
  uint32_t descriptor_size;    /* sizeof(StableTorchPluginDescriptor) */
  uint64_t target_abi_version; /* TORCH_FEATURE_VERSION the plugin targets */
  uint64_t build_abi_version;  /* TORCH_ABI_VERSION of its headers */
  uint32_t sdk_version_number; /* STABLETORCH_VERSION_NUMBER of its SDK */
  uint32_t reserved;           /* zero */
} StableTorchPluginDescriptor;

#if defined(__cplusplus)
static_assert(sizeof(StableTorchPluginDescriptor) == 48, "descriptor layout is ABI");
#else
_Static_assert(sizeof(StableTorchPluginDescriptor) == 48, "descriptor layout is ABI");
#endif

#endif /* STABLETORCH_C_PLUGIN_DESCRIPTOR_H */
