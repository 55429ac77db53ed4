#include "loader/plugin_imports.h"

#include <sstream>

#include <torch/headeronly/version.h>

#include "loader/plugin_descriptor.h"

namespace st::loader {
namespace {

// Levels order as their names do once split: TORCH_VERSION_M_m_p before
// STABLETORCH_* (project additions, not a stable-ABI level).
std::vector<int> level_key(const std::string& level) {
  std::vector<int> key;
  const std::string torch = "TORCH_VERSION_";
  if (level.rfind(torch, 0) != 0) return key;
  std::istringstream in(level.substr(torch.size()));
  std::string part;
  while (std::getline(in, part, '_')) key.push_back(std::stoi(part));
  return key;
}

// "TORCH_VERSION_2_10_0" -> "2.10".
std::string dotted(const std::string& level) {
  const std::vector<int> k = level_key(level);
  if (k.size() < 2) return level;
  return std::to_string(k[0]) + "." + std::to_string(k[1]);
}

// Functions this runtime exports under PyTorch's prefixes that PyTorch 2.15
// does not (abi_checks/declaration_gaps.txt, "ours only").
bool pytorch_lacks(const std::string& name, const std::string& level) {
  return level.rfind("STABLETORCH_", 0) == 0 || name == "aoti_torch_get_mutable_data_ptr" ||
         name == "aoti_torch_get_const_data_ptr";
}

}  // namespace

bool is_c_abi_symbol(std::string_view name) {
  return name.rfind("aoti_torch_", 0) == 0 || name.rfind("torch_", 0) == 0 ||
         name.rfind("stabletorch_", 0) == 0;
}

const std::map<std::string, std::string>& exported_symbol_levels() {
  static const std::map<std::string, std::string> table = {
#include "stabletorch_symbol_levels.inc"
  };
  return table;
}

const std::map<std::string, std::string>& pytorch_function_levels() {
  static const std::map<std::string, std::string> table = {
#include "pytorch_function_levels.inc"
  };
  return table;
}

std::string missing_function_level(const std::string& name) {
  if (name.rfind("stabletorch_", 0) == 0) {
    return "a stabletorch addition newer than this runtime";
  }
  const auto it = pytorch_function_levels().find(name);
  if (it == pytorch_function_levels().end()) {
    return "level unknown: not declared by PyTorch 2.15's stable headers either";
  }
  return "stable-ABI level " + dotted(it->second);
}

ImportVerdict judge_imports(const ElfFile& elf) {
  ImportVerdict v;
  std::vector<int> needed;
  for (const std::string& sym : elf.imports) {
    if (!is_c_abi_symbol(sym)) continue;
    v.c_abi.push_back(sym);
    const auto it = exported_symbol_levels().find(sym);
    if (it == exported_symbol_levels().end()) {
      v.missing.push_back(sym);
      if (sym.rfind("stabletorch_", 0) == 0) v.not_in_pytorch.push_back(sym);
      continue;
    }
    if (pytorch_lacks(sym, it->second)) v.not_in_pytorch.push_back(sym);
    const std::vector<int> key = level_key(it->second);
    if (key > needed) {
      needed = key;
      v.needed_level = dotted(it->second);
    }
  }
  if (elf.section) {
    v.built_with = "the stabletorch SDK";
  } else if (!v.c_abi.empty()) {
    v.built_with = "PyTorch's headers or the C ABI alone";
  } else {
    v.built_with = "unknown";
  }
  return v;
}

std::string missing_imports_message(const ImportVerdict& v, const std::string& path) {
  std::ostringstream os;
  os << "refusing to load '" << path << "' before running any of its code: built with "
     << v.built_with << ", it imports " << v.missing.size() << " C-ABI function"
     << (v.missing.size() == 1 ? "" : "s") << " this runtime (stable-ABI level "
     << format_abi_version(TORCH_ABI_VERSION) << ") does not export:";
  for (const std::string& m : v.missing)
    os << "\n  " << m << " (" << missing_function_level(m) << ")";
  return os.str();
}

}  // namespace st::loader
