#include "inspect_plugin.h"

#include <stabletorch/c/runtime.h>
#include <st/core/error.h>

#include "loader/elf_file.h"
#include "loader/plugin_descriptor.h"
#include "loader/plugin_imports.h"

namespace st::cli {

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
           "judged by its imports\n";
  } else {
    try {
      const auto verdict =
          loader::judge_descriptors(loader::decode_descriptors(*elf.section, path), core_abi, path);
      const auto& d = verdict.judged;
      const std::string which =
          verdict.count > 1 ? "the highest of " + std::to_string(verdict.count) + " " : "";
      out << "descriptor: " << which << "targets stable-ABI "
          << loader::format_abi_version(d.target_abi_version) << ", built with headers of level "
          << loader::format_abi_version(d.build_abi_version) << ", stabletorch SDK "
          << loader::format_sdk_version(d.sdk_version_number) << "\n";
      if (verdict.refusal) {
        out << "            " << *verdict.refusal << "\n";
        level_ok = false;
      }
    } catch (const std::exception& e) {
      out << "descriptor: invalid: " << e.what() << "\n";
      level_ok = false;
    }
  }
  const loader::ImportVerdict imports = loader::judge_imports(elf);
  out << "built with: " << imports.built_with << "\n";
  out << "imports:\n";
  for (const std::string& sym : imports.c_abi) {
    const auto it = loader::exported_symbol_levels().find(sym);
    const bool known = it != loader::exported_symbol_levels().end();
    out << "  " << sym << "  ["
        << (known ? it->second : "MISSING from this core: " + loader::missing_function_level(sym))
        << "]\n";
  }
  const size_t other = elf.imports.size() - imports.c_abi.size();
  out << "  (+ " << other << " C/C++ runtime symbol" << (other == 1 ? "" : "s") << ")\n";
  out << "needs:      stable-ABI "
      << (imports.needed_level.empty() ? "(no C-ABI import)" : imports.needed_level) << "\n";
  out << "portable:   ";
  if (imports.not_in_pytorch.empty()) {
    out << "yes: PyTorch's runtime (2.15) exports every C-ABI function it imports\n";
  } else {
    out << "no: PyTorch's runtime lacks";
    for (const std::string& sym : imports.not_in_pytorch) out << " " << sym;
    out << "\n";
  }
  result.can_run = level_ok && imports.missing.empty();
  out << "verdict:    " << (result.can_run ? "this core can run it" : "this core CANNOT run it")
      << "\n";
  return result;
}

}  // namespace st::cli
