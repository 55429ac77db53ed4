// Decoding and judging the descriptor a plugin carries
// (stabletorch/c/plugin_descriptor.h): what level it targets and whether
// this core can run it. Shared by the loader and `stabletorch inspect`.
#pragma once

#include <cstddef>
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

// Decodes every descriptor in the section bytes, in order (zero bytes
// between and after them are alignment padding). Throws st::Error naming `path` when the section is
// malformed (wrong magic, unknown version, short, trailing garbage).
std::vector<StableTorchPluginDescriptor> decode_descriptors(const std::vector<uint8_t>& bytes,
                                                            const std::string& path);

// Why a plugin with this descriptor cannot run on a core serving
// `core_abi`, or nullopt when it can. Only the *target* level matters: a
// plugin built with newer headers but targeting an older level runs.
std::optional<std::string> incompatibility(const StableTorchPluginDescriptor& d, uint64_t core_abi,
                                           const std::string& path);

// The verdict on a plugin's descriptors. A plugin carries exactly one; when
// it carries several (two SDKs linked into one plugin, a hand-made section)
// the one asking for the highest level is judged and the plugin is refused.
struct DescriptorVerdict {
  StableTorchPluginDescriptor judged{};
  size_t count = 0;
  std::optional<std::string> refusal;  // why it cannot load, or nullopt
};
// Precondition: !descriptors.empty().
DescriptorVerdict judge_descriptors(const std::vector<StableTorchPluginDescriptor>& descriptors,
                                    uint64_t core_abi, const std::string& path);

}  // namespace st::loader
