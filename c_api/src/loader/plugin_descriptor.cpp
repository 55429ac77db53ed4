#include "loader/plugin_descriptor.h"

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

StableTorchPluginDescriptor decode_descriptor(const std::vector<uint8_t>& bytes,
                                              const std::string& path) {
  StableTorchPluginDescriptor d{};
  ST_CHECK(bytes.size() >= sizeof(d), "plugin '", path, "': its ", STABLETORCH_PLUGIN_SECTION,
           " section has ", bytes.size(), " bytes, expected at least ", sizeof(d));
  std::memcpy(&d, bytes.data(), sizeof(d));
  ST_CHECK(std::memcmp(d.magic, STABLETORCH_PLUGIN_MAGIC, sizeof(d.magic)) == 0,
           "plugin '", path, "': its ", STABLETORCH_PLUGIN_SECTION,
           " section does not start with the descriptor magic");
  ST_CHECK(d.descriptor_version >= 1, "plugin '", path, "': descriptor version ",
           d.descriptor_version, " is invalid");
  ST_CHECK(d.descriptor_size >= sizeof(d) && d.descriptor_size <= bytes.size(), "plugin '",
           path, "': descriptor size ", d.descriptor_size, " is invalid");
  return d;
}

std::optional<std::string> incompatibility(const StableTorchPluginDescriptor& d,
                                           uint64_t core_abi, const std::string& path) {
  if (d.target_abi_version > core_abi) {
    return "plugin '" + path + "' targets stable-ABI level " +
           format_abi_version(d.target_abi_version) + " but this core provides " +
           format_abi_version(core_abi) + "; rebuild it with TORCH_TARGET_VERSION at most " +
           format_abi_version(core_abi) + " or upgrade the core";
  }
  return std::nullopt;
}

}  // namespace st::loader
