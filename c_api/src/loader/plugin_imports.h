// Judging a plugin by the C-ABI functions it imports, before any of its
// code runs: the loader refuses one that imports a function this runtime
// does not export (whoever built it: our SDK or PyTorch's headers), and
// `stabletorch inspect` reports which SDK built it, the level it needs and
// whether PyTorch's runtime could run it too.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "loader/elf_file.h"

namespace st::loader {

// aoti_torch_*, torch_* and stabletorch_* names: the C ABI's prefixes.
bool is_c_abi_symbol(const std::string& name);

// Every function this runtime exports -> the level that introduced it
// ("TORCH_VERSION_2_10_0", "STABLETORCH_0_1_0"), from
// c_api/shim_function_versions.txt at build time.
const std::map<std::string, std::string>& exported_symbol_levels();

struct ImportVerdict {
  // "the stabletorch SDK" (it carries our descriptor), "PyTorch's headers or
  // the C ABI alone"
  // (no descriptor, but C-ABI imports) or "unknown".
  std::string built_with;
  std::vector<std::string> c_abi;         // its C-ABI imports, sorted
  std::vector<std::string> missing;       // ...this runtime does not export
  std::vector<std::string> not_in_pytorch;  // ...PyTorch's runtime lacks
  std::string needed_level;               // highest level among known imports
};

ImportVerdict judge_imports(const ElfFile& elf);

// "refusing to load '<path>': built with ..., it imports N C-ABI functions
// this runtime does not export: ..." for verdicts with missing functions.
std::string missing_imports_message(const ImportVerdict& v, const std::string& path);

}  // namespace st::loader
