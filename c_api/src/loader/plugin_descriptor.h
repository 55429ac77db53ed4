// Decoding and judging the descriptor a plugin carries
// (stabletorch/c/plugin_descriptor.h): what level it targets and whether
// this core can run it. Shared by the loader and `stabletorch inspect`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <stabletorch/c/plugin_descriptor.h>

namespace st::loader {

// "2.10.0" for a TORCH_ABI_VERSION-shaped value.
std::string format_abi_version(uint64_t v);
// "0.1.0" for a STABLETORCH_VERSION_NUMBER.
std::string format_sdk_version(uint32_t v);

// Decodes the section bytes. Throws st::Error naming `path` when the
// section is present but malformed (wrong magic, unknown version, short).
StableTorchPluginDescriptor decode_descriptor(const std::vector<uint8_t>& bytes,
                                              const std::string& path);

// Why a plugin with this descriptor cannot run on a core serving
// `core_abi`, or nullopt when it can. Only the *target* level matters: a
// plugin built with newer headers but targeting an older level runs.
std::optional<std::string> incompatibility(const StableTorchPluginDescriptor& d,
                                           uint64_t core_abi, const std::string& path);

}  // namespace st::loader
