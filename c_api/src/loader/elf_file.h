// Reads what the loader and `stabletorch inspect` need from a plugin file
// without loading it: that it is a 64-bit little-endian ELF shared object
// for this machine, its undefined dynamic symbols (what it imports), and
// the raw bytes of a named section (the plugin descriptor).
//
// Every offset and size read from the file is bounds-checked against the
// file's size before anything is read or allocated: garbage, truncated or
// hostile files yield a clear error, never a crash, and no read goes past
// the file (a device or a FIFO is refused before reading, plugin_file.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loader/plugin_file.h"

namespace st::loader {

struct ElfFile {
  std::string path;
  uint16_t machine = 0;                   // e_machine
  std::vector<std::string> imports;       // undefined dynamic symbols, sorted
  std::vector<std::string> weak_imports;  // weak undefined ones (may stay unbound), sorted
  std::vector<std::string> exports;       // defined global dynamic symbols, sorted
  // Contents of the requested section (of every section of that name, in
  // file order), if the file has it.
  std::optional<std::vector<uint8_t>> section;
};

// Which dynamic symbols a read lists: those for which it returns true.
// Every symbol's name is checked either way; a filter only saves copying
// names nobody reads (the loader judges only C-ABI imports).
using SymbolFilter = bool (*)(std::string_view name);

// Parses the open plugin file; `section_name` selects the section whose
// bytes are returned, `keep` (null: all) the symbols listed. Throws
// st::Error naming the path and the problem ("not an ELF file",
// "truncated ...", "built for AArch64, this machine is x86-64", "not a
// shared object", ...).
ElfFile read_elf_file(const PluginFile& file, const std::string& section_name,
                      SymbolFilter keep = nullptr);

// Same, opening `path` first (PluginFile::open: regular files only).
ElfFile read_elf_file(const std::string& path, const std::string& section_name);

// Same, from bytes already in memory (used by the fuzzer); `path` only
// names the source in messages.
ElfFile parse_elf_bytes(const std::vector<uint8_t>& bytes, const std::string& path,
                        const std::string& section_name);

// "x86-64", "AArch64", ... for an e_machine value.
std::string machine_name(uint16_t machine);

}  // namespace st::loader
