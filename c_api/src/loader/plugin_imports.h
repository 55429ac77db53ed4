// Judging a plugin by the C-ABI functions it imports, before any of its
// code runs: the loader refuses one that imports a function this runtime
// does not export (whoever built it: our SDK or PyTorch's headers), and
// `stabletorch inspect` reports which SDK built it, the level it needs and
// whether PyTorch's runtime could run it too.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "loader/elf_file.h"

namespace st::loader {

// aoti_torch_*, torch_* and stabletorch_* names: the C ABI's prefixes.
bool is_c_abi_symbol(std::string_view name);

// Every function this runtime exports -> the level that introduced it
// ("TORCH_VERSION_2_10_0", "STABLETORCH_0_1_0"), from
// c_api/shim_function_versions.txt at build time.
const std::map<std::string, std::string>& exported_symbol_levels();

// Every function PyTorch 2.15's extension headers declare -> its level
// (c_api/pytorch_function_levels.txt), exported here or not.
const std::map<std::string, std::string>& pytorch_function_levels();

// The level of a C-ABI function this runtime does not export, for
// messages: "stable-ABI level 2.13", "a stabletorch addition newer than
// this runtime", or "level unknown: not declared by PyTorch 2.15's stable
// headers either".
std::string missing_function_level(const std::string& name);

struct ImportVerdict {
  // "the stabletorch SDK" (it carries our descriptor), "PyTorch's headers or
  // the C ABI alone"
  // (no descriptor, but C-ABI imports) or "unknown".
  std::string built_with;
  std::vector<std::string> c_abi;           // its C-ABI imports, sorted
  std::vector<std::string> missing;         // ...this runtime does not export
  std::vector<std::string> not_in_pytorch;  // ...PyTorch's runtime lacks
  std::string needed_level;                 // highest level among known imports
};

ImportVerdict judge_imports(const ElfFile& elf);

// "refusing to load '<path>' before running any of its code: built with
// ..., it imports N C-ABI functions this runtime does not export:" and one
// line per missing function with its level, for verdicts with missing
// functions.
std::string missing_imports_message(const ImportVerdict& v, const std::string& path);

}  // namespace st::loader
