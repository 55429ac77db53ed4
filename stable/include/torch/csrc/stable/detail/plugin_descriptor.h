// The plugin descriptor every extension built with the SDK carries (see
// stabletorch/c/plugin_descriptor.h): the stable-ABI level it targets and
// was built with, and the SDK version. The loader and `stabletorch
// inspect` read it from the file before any of the plugin's code runs.
//
// Included by library.h, so every plugin that registers operators with
// the SDK's macros has exactly one: the inline variable is merged across
// translation units, and `used` keeps it although nothing refers to it.
#pragma once

#include <stabletorch/c/plugin_descriptor.h>
#include <stabletorch/version.h>
#include <torch/csrc/stable/version.h>
#include <torch/headeronly/macros/Macros.h>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

#if defined(__ELF__)
[[gnu::used]] __attribute__((
    section(STABLETORCH_PLUGIN_SECTION))) inline const StableTorchPluginDescriptor
    stabletorch_plugin_descriptor = {
        {'S', 'T', 'A', 'B', 'L', 'E', 'T', 'O', 'R', 'C', 'H', '-', 'P', 'L', 'U', 'G'},
        STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
        static_cast<uint32_t>(sizeof(StableTorchPluginDescriptor)),
        static_cast<uint64_t>(TORCH_FEATURE_VERSION),
        static_cast<uint64_t>(TORCH_ABI_VERSION),
        static_cast<uint32_t>(STABLETORCH_VERSION_NUMBER),
        0};
#endif

HIDDEN_NAMESPACE_END(torch, stable, detail)
