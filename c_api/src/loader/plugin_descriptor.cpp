#include "loader/plugin_descriptor.h"

#include <algorithm>
#include <cstring>

#include <st/core/error.h>

namespace st::loader {

std::string format_abi_version(uint64_t v) {
  return std::to_string((v >> 56) & 0xFF) + "." + std::to_string((v >> 48) & 0xFF) + "." +
         std::to_string((v >> 40) & 0xFF);
}

std::string format_sdk_version(uint32_t v) {
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
         std::to_string(v % 100);
}

namespace {

StableTorchPluginDescriptor decode_one(const uint8_t* bytes, size_t size, size_t offset,
                                       const std::string& path) {
  StableTorchPluginDescriptor d{};
  ST_CHECK(size >= sizeof(d), "plugin '", path, "': its ", STABLETORCH_PLUGIN_SECTION,
           " section has ", size, " bytes at offset ", offset, ", a descriptor needs ", sizeof(d));
  std::memcpy(&d, bytes, sizeof(d));
  ST_CHECK(std::memcmp(d.magic, STABLETORCH_PLUGIN_MAGIC, sizeof(d.magic)) == 0, "plugin '", path,
           "': its ", STABLETORCH_PLUGIN_SECTION,
           " section does not hold the descriptor magic at offset ", offset);
  ST_CHECK(d.descriptor_version >= 1, "plugin '", path, "': descriptor version ",
           d.descriptor_version, " is invalid");
  ST_CHECK(d.descriptor_size >= sizeof(d) && d.descriptor_size <= size, "plugin '", path,
           "': descriptor size ", d.descriptor_size, " is invalid");
  return d;
}

}  // namespace

std::vector<StableTorchPluginDescriptor> decode_descriptors(const std::vector<uint8_t>& bytes,
                                                            const std::string& path) {
  std::vector<StableTorchPluginDescriptor> out;
  size_t offset = 0;
  do {
    const StableTorchPluginDescriptor d =
        decode_one(bytes.data() + offset, bytes.size() - offset, offset, path);
    out.push_back(d);
    // descriptor_size <= the bytes left (checked), so this stays in range.
    offset += d.descriptor_size;
    // Zero bytes between and after descriptors are alignment padding (the
    // compiler may align each object to 32 bytes or more).
    while (offset < bytes.size() && bytes[offset] == 0) ++offset;
  } while (offset < bytes.size());
  return out;
}

std::optional<std::string> incompatibility(const StableTorchPluginDescriptor& d, uint64_t core_abi,
                                           const std::string& path) {
  if (d.target_abi_version > core_abi) {
    return "plugin '" + path + "' targets stable-ABI level " +
           format_abi_version(d.target_abi_version) + " but this core provides " +
           format_abi_version(core_abi) + "; rebuild it with TORCH_TARGET_VERSION at most " +
           format_abi_version(core_abi) + " or upgrade the core";
  }
  return std::nullopt;
}

DescriptorVerdict judge_descriptors(const std::vector<StableTorchPluginDescriptor>& descriptors,
                                    uint64_t core_abi, const std::string& path) {
  DescriptorVerdict v;
  v.count = descriptors.size();
  v.judged = *std::max_element(
      descriptors.begin(), descriptors.end(),
      [](const auto& a, const auto& b) { return a.target_abi_version < b.target_abi_version; });
  if (v.count > 1) {
    std::vector<uint64_t> targets;
    for (const auto& d : descriptors) targets.push_back(d.target_abi_version);
    std::sort(targets.begin(), targets.end());
    std::string levels;
    for (const uint64_t t : targets) {
      levels += (levels.empty() ? "" : ", ") + format_abi_version(t);
    }
    v.refusal = "plugin '" + path + "' carries " + std::to_string(v.count) +
                " descriptors in its " + STABLETORCH_PLUGIN_SECTION + " section (targeting " +
                levels + "); a plugin carries exactly one. The highest level they ask for, " +
                format_abi_version(v.judged.target_abi_version) + ", is judged: " +
                incompatibility(v.judged, core_abi, path)
                    .value_or("this core (" + format_abi_version(core_abi) + ") serves it") +
                "; rebuild the plugin with a single SDK";
    return v;
  }
  v.refusal = incompatibility(v.judged, core_abi, path);
  return v;
}

}  // namespace st::loader
