// libFuzzer target: the plugin-file reader used by the loader and
// `stabletorch inspect` (c_api/src/loader/elf_file.cpp and
// plugin_descriptor.cpp). Any bytes either parse or are rejected with an
// st::Error naming the file; no crash, no out-of-bounds read, no other
// exception, no unbounded allocation.
#include <cstdint>
#include <string>
#include <vector>

#include <stabletorch/c/plugin_descriptor.h>
#include <st/core/error.h>

#include "loader/elf_file.h"
#include "loader/plugin_descriptor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const st::loader::ElfFile elf =
        st::loader::parse_elf_bytes(bytes, "fuzz-input.so", STABLETORCH_PLUGIN_SECTION);
    (void)st::loader::machine_name(elf.machine);
    if (elf.section) {
      const auto descriptors = st::loader::decode_descriptors(*elf.section, "fuzz-input.so");
      const auto verdict =
          st::loader::judge_descriptors(descriptors, 0x020A000000000000ULL, "fuzz-input.so");
      (void)st::loader::format_abi_version(verdict.judged.target_abi_version);
      (void)st::loader::format_sdk_version(verdict.judged.sdk_version_number);
    }
  } catch (const st::Error&) {
  }
  return 0;
}
