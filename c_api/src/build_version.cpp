// Note [Build versions newer than the runtime] in build_version.h.
#include "build_version.h"

#include <ios>

#include <st/core/error.h>

#include "loader/plugin_descriptor.h"

namespace stc {

void throw_newer_build_version(uint64_t extension_build_version) {
  ST_ERROR("extension_build_version 0x", std::hex, extension_build_version, std::dec, " (",
           st::loader::format_abi_version(extension_build_version),
           ") is newer than the newest stable-ABI level this runtime knows (",
           st::loader::format_abi_version(kNewestKnownBuildVersion),
           "; it serves TORCH_ABI_VERSION 0x", std::hex, uint64_t{TORCH_ABI_VERSION}, std::dec,
           " (", st::loader::format_abi_version(TORCH_ABI_VERSION),
           ")): the caller was built with headers whose encodings it cannot know");
}

}  // namespace stc
