#include "loader/elf_file.h"

#include <elf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <st/core/error.h>

namespace st::loader {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
#error "stabletorch's plugin loader knows only x86-64 and AArch64 hosts"
#endif

// A bounds-checked view of the file's bytes.
class Bytes {
 public:
  Bytes(const std::vector<uint8_t>& data, const std::string& path)
      : data_(data), path_(path) {}

  // Copies a T from `offset`, failing with `what` if it does not fit.
  template <typename T>
  T read(uint64_t offset, const char* what) const {
    check_range(offset, sizeof(T), what);
    T value;
    std::memcpy(&value, data_.data() + offset, sizeof(T));
    return value;
  }

  void check_range(uint64_t offset, uint64_t size, const char* what) const {
    if (offset > data_.size() || size > data_.size() - offset) {
      ST_ERROR("plugin file '", path_, "' is truncated or corrupt: ", what,
               " (bytes ", offset, "..", offset + size, ") lies beyond the ",
               data_.size(), "-byte file");
    }
  }

  // A NUL-terminated string inside [table, table + table_size).
  std::string string_at(uint64_t table, uint64_t table_size, uint64_t index,
                        const char* what) const {
    check_range(table, table_size, what);
    if (index >= table_size) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what, " index ",
               index, " is outside its ", table_size, "-byte string table");
    }
    const auto* begin = reinterpret_cast<const char*>(data_.data() + table);
    const char* end = static_cast<const char*>(
        std::memchr(begin + index, '\0', table_size - index));
    if (end == nullptr) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what,
               " is not NUL-terminated");
    }
    return std::string(begin + index, end);
  }

  const uint8_t* at(uint64_t offset) const { return data_.data() + offset; }
  uint64_t size() const { return data_.size(); }

 private:
  const std::vector<uint8_t>& data_;
  const std::string& path_;
};

}  // namespace

std::string machine_name(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_PPC64: return "PowerPC64";
    case EM_RISCV: return "RISC-V";
    case EM_S390: return "s390";
    default: return "machine " + std::to_string(machine);
  }
}

ElfFile parse_elf_bytes(const std::vector<uint8_t>& data,
                        const std::string& path,
                        const std::string& section_name) {
  Bytes bytes(data, path);
  if (data.size() < EI_NIDENT || std::memcmp(data.data(), ELFMAG, SELFMAG) != 0) {
    ST_ERROR("'", path, "' is not a shared library: not an ELF file");
  }
  if (data[EI_CLASS] != ELFCLASS64) {
    ST_ERROR("'", path, "' is a 32-bit ELF file; this core loads only 64-bit plugins");
  }
  if (data[EI_DATA] != ELFDATA2LSB) {
    ST_ERROR("'", path, "' is a big-endian ELF file; this machine is little-endian");
  }
  const auto header = bytes.read<Elf64_Ehdr>(0, "the ELF header");
  ElfFile result;
  result.path = path;
  result.machine = header.e_machine;
  if (header.e_machine != kHostMachine) {
    ST_ERROR("'", path, "' was built for ", machine_name(header.e_machine),
             "; this machine is ", machine_name(kHostMachine));
  }
  if (header.e_type != ET_DYN) {
    ST_ERROR("'", path, "' is not a shared object (ELF type ", header.e_type,
             ", expected ET_DYN = ", ET_DYN, ")");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr) && header.e_shnum != 0) {
    ST_ERROR("plugin file '", path, "' is corrupt: section header size ",
             header.e_shentsize, ", expected ", sizeof(Elf64_Shdr));
  }
  const uint64_t shnum = header.e_shnum;
  bytes.check_range(header.e_shoff, shnum * sizeof(Elf64_Shdr),
                    "the section header table");
  std::vector<Elf64_Shdr> sections(shnum);
  for (uint64_t i = 0; i < shnum; ++i) {
    sections[i] = bytes.read<Elf64_Shdr>(header.e_shoff + i * sizeof(Elf64_Shdr),
                                         "a section header");
  }
  // Section names.
  std::vector<std::string> names(shnum);
  if (header.e_shstrndx != SHN_UNDEF && header.e_shstrndx < shnum) {
    const Elf64_Shdr& strtab = sections[header.e_shstrndx];
    for (uint64_t i = 0; i < shnum; ++i) {
      if (sections[i].sh_name != 0) {
        names[i] = bytes.string_at(strtab.sh_offset, strtab.sh_size,
                                   sections[i].sh_name, "a section name");
      }
    }
  }
  for (uint64_t i = 0; i < shnum; ++i) {
    const Elf64_Shdr& s = sections[i];
    if (names[i] == section_name && s.sh_type != SHT_NOBITS) {
      bytes.check_range(s.sh_offset, s.sh_size, "the plugin descriptor section");
      result.section.emplace(bytes.at(s.sh_offset), bytes.at(s.sh_offset) + s.sh_size);
    }
    if (s.sh_type == SHT_DYNSYM) {
      if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= shnum) {
        ST_ERROR("plugin file '", path, "' is corrupt: malformed .dynsym");
      }
      const Elf64_Shdr& strtab = sections[s.sh_link];
      bytes.check_range(s.sh_offset, s.sh_size, "the dynamic symbol table");
      const uint64_t count = s.sh_size / sizeof(Elf64_Sym);
      for (uint64_t k = 1; k < count; ++k) {  // entry 0 is the null symbol
        const auto sym = bytes.read<Elf64_Sym>(s.sh_offset + k * sizeof(Elf64_Sym),
                                               "a dynamic symbol");
        if (sym.st_name == 0) continue;
        std::string name = bytes.string_at(strtab.sh_offset, strtab.sh_size,
                                           sym.st_name, "a symbol name");
        const unsigned bind = ELF64_ST_BIND(sym.st_info);
        if (sym.st_shndx == SHN_UNDEF) {
          result.imports.push_back(std::move(name));
        } else if (bind == STB_GLOBAL || bind == STB_WEAK) {
          result.exports.push_back(std::move(name));
        }
      }
    }
  }
  std::sort(result.imports.begin(), result.imports.end());
  std::sort(result.exports.begin(), result.exports.end());
  return result;
}

ElfFile read_elf_file(const std::string& path, const std::string& section_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ST_ERROR("cannot open plugin '", path, "': ", std::strerror(errno));
  }
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
  return parse_elf_bytes(data, path, section_name);
}

}  // namespace st::loader
