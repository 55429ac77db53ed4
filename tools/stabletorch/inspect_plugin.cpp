#include "inspect_plugin.h"

#include <dlfcn.h>

#include <map>

#include <stabletorch/c/runtime.h>
#include <st/core/error.h>

#include "loader/elf_file.h"
#include "loader/plugin_descriptor.h"

namespace st::cli {
namespace {

// symbol -> level that introduced it, generated from
// c_api/shim_function_versions.txt at configure time.
const std::map<std::string, std::string>& symbol_levels() {
  static const std::map<std::string, std::string> table = {
#include "stabletorch_symbol_levels.inc"
  };
  return table;
}

bool is_c_abi_symbol(const std::string& name) {
  return name.rfind("aoti_torch_", 0) == 0 || name.rfind("torch_", 0) == 0 ||
         name.rfind("stabletorch_", 0) == 0;
}

}  // namespace

InspectResult inspect_plugin(const std::string& path, std::ostream& out) {
  InspectResult result;
  loader::ElfFile elf;
  try {
    elf = loader::read_elf_file(path, STABLETORCH_PLUGIN_SECTION);
  } catch (const std::exception& e) {
    out << "plugin:     " << path << "\nerror:      " << e.what() << "\n";
    return result;
  }
  result.readable = true;
  const uint64_t core_abi = stabletorch_abi_level();
  out << "plugin:     " << path << "\n";
  out << "core:       stabletorch " << stabletorch_version_string() << ", stable-ABI level "
      << loader::format_abi_version(core_abi) << "\n";
  bool level_ok = true;
  if (!elf.section) {
    out << "descriptor: none (not built with the stabletorch SDK's registration macros); "
           "its stable-ABI level is unknown\n";
  } else {
    try {
      const auto verdict = loader::judge_descriptors(
          loader::decode_descriptors(*elf.section, path), core_abi, path);
      const auto& d = verdict.judged;
      const std::string which =
          verdict.count > 1 ? "the highest of " + std::to_string(verdict.count) + " " : "";
      out << "descriptor: " << which << "targets stable-ABI " << loader::format_abi_version(d.target_abi_version)
          << ", built with headers of level " << loader::format_abi_version(d.build_abi_version)
          << ", stabletorch SDK " << loader::format_sdk_version(d.sdk_version_number) << "\n";
      if (verdict.refusal) {
        out << "            " << *verdict.refusal << "\n";
        level_ok = false;
      }
    } catch (const std::exception& e) {
      out << "descriptor: invalid: " << e.what() << "\n";
      level_ok = false;
    }
  }
  out << "imports:\n";
  bool imports_ok = true;
  size_t other = 0;
  for (const std::string& sym : elf.imports) {
    if (!is_c_abi_symbol(sym)) {
      ++other;
      continue;
    }
    const auto it = symbol_levels().find(sym);
    const bool present = dlsym(RTLD_DEFAULT, sym.c_str()) != nullptr;
    imports_ok = imports_ok && present;
    out << "  " << sym << "  [" << (it != symbol_levels().end() ? it->second : "unknown level")
        << "]" << (present ? "" : "  MISSING from this core") << "\n";
  }
  out << "  (+ " << other << " C/C++ runtime symbol" << (other == 1 ? "" : "s") << ")\n";
  result.can_run = level_ok && imports_ok;
  out << "verdict:    " << (result.can_run ? "this core can run it" : "this core CANNOT run it")
      << "\n";
  return result;
}

}  // namespace st::cli
