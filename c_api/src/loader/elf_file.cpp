#include "loader/elf_file.h"

#include <elf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

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

// Where the parser's bytes come from: the open file (bounded preads) or a
// buffer (the fuzzer).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Precondition: [offset, offset + n) lies inside size().
  virtual void read(uint64_t offset, uint64_t n, void* dst) const = 0;
};

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const PluginFile& file) : file_(file) {}
  uint64_t size() const override { return file_.size(); }
  void read(uint64_t offset, uint64_t n, void* dst) const override {
    file_.read_at(offset, n, dst);
  }

 private:
  const PluginFile& file_;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(const std::vector<uint8_t>& data) : data_(data) {}
  uint64_t size() const override { return data_.size(); }
  void read(uint64_t offset, uint64_t n, void* dst) const override {
    if (n != 0) std::memcpy(dst, data_.data() + offset, n);
  }

 private:
  const std::vector<uint8_t>& data_;
};

// Bounds-checked reads: every range is checked against the source's size
// before anything is allocated or read.
class Bytes {
 public:
  Bytes(const ByteSource& source, const std::string& path) : source_(source), path_(path) {}

  // Copies a T from `offset`, failing with `what` if it does not fit.
  template <typename T>
  T read(uint64_t offset, const char* what) const {
    check_range(offset, sizeof(T), what);
    T value;
    source_.read(offset, sizeof(T), &value);
    return value;
  }

  std::vector<uint8_t> block(uint64_t offset, uint64_t size, const char* what) const {
    check_range(offset, size, what);
    std::vector<uint8_t> out(size);
    source_.read(offset, size, out.data());
    return out;
  }

  void check_range(uint64_t offset, uint64_t size, const char* what) const {
    if (offset > source_.size() || size > source_.size() - offset) {
      ST_ERROR("plugin file '", path_, "' is truncated or corrupt: ", what, " (bytes ", offset,
               "..+", size, ") lies beyond the ", source_.size(), "-byte file");
    }
  }

  // A NUL-terminated string at `index` of a string table read whole.
  std::string string_at(const std::vector<uint8_t>& table, uint64_t index, const char* what) const {
    if (index >= table.size()) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what, " index ", index, " is outside its ",
               table.size(), "-byte string table");
    }
    const auto* begin = reinterpret_cast<const char*>(table.data());
    const char* end =
        static_cast<const char*>(std::memchr(begin + index, '\0', table.size() - index));
    if (end == nullptr) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what, " is not NUL-terminated");
    }
    return std::string(begin + index, end);
  }

  uint64_t size() const { return source_.size(); }

 private:
  const ByteSource& source_;
  const std::string& path_;
};

}  // namespace

std::string machine_name(uint16_t machine) {
  switch (machine) {
    case EM_X86_64:
      return "x86-64";
    case EM_AARCH64:
      return "AArch64";
    case EM_386:
      return "i386";
    case EM_ARM:
      return "ARM";
    case EM_PPC64:
      return "PowerPC64";
    case EM_RISCV:
      return "RISC-V";
    case EM_S390:
      return "s390";
    default:
      return "machine " + std::to_string(machine);
  }
}

namespace {

ElfFile parse_elf(const ByteSource& source, const std::string& path,
                  const std::string& section_name) {
  const Bytes bytes(source, path);
  unsigned char ident[EI_NIDENT] = {};
  if (bytes.size() < EI_NIDENT) {
    ST_ERROR("'", path, "' is not a shared library: not an ELF file (", bytes.size(), " bytes)");
  }
  source.read(0, EI_NIDENT, ident);
  if (std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
    ST_ERROR("'", path, "' is not a shared library: not an ELF file");
  }
  if (ident[EI_CLASS] == ELFCLASS32) {
    // e_machine sits at the same offset in both classes.
    const uint16_t machine =
        bytes.read<uint16_t>(offsetof(Elf32_Ehdr, e_machine), "the ELF header");
    ST_ERROR("'", path, "' is a 32-bit ELF file (", machine_name(machine),
             "); this core loads only 64-bit ", machine_name(kHostMachine), " plugins");
  }
  if (ident[EI_CLASS] != ELFCLASS64) {
    ST_ERROR("'", path, "' is an ELF file of unknown class ", int{ident[EI_CLASS]},
             "; this core loads only 64-bit ", machine_name(kHostMachine), " plugins");
  }
  if (ident[EI_DATA] != ELFDATA2LSB) {
    ST_ERROR("'", path, "' is a big-endian ELF file; this machine is little-endian");
  }
  const auto header = bytes.read<Elf64_Ehdr>(0, "the ELF header");
  ElfFile result;
  result.path = path;
  result.machine = header.e_machine;
  if (header.e_machine != kHostMachine) {
    ST_ERROR("'", path, "' was built for ", machine_name(header.e_machine), "; this machine is ",
             machine_name(kHostMachine));
  }
  if (header.e_type != ET_DYN) {
    ST_ERROR("'", path, "' is not a shared object (ELF type ", header.e_type,
             ", expected ET_DYN = ", ET_DYN, ")");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr) && header.e_shnum != 0) {
    ST_ERROR("plugin file '", path, "' is corrupt: section header size ", header.e_shentsize,
             ", expected ", sizeof(Elf64_Shdr));
  }
  // e_shnum is 16 bits: the table is at most 4 MiB, and it must lie inside
  // the file before anything is allocated for it.
  const uint64_t shnum = header.e_shnum;
  const std::vector<uint8_t> table =
      bytes.block(header.e_shoff, shnum * sizeof(Elf64_Shdr), "the section header table");
  std::vector<Elf64_Shdr> sections(shnum);
  if (shnum != 0) std::memcpy(sections.data(), table.data(), table.size());
  // Section names.
  std::vector<std::string> names(shnum);
  if (header.e_shstrndx != SHN_UNDEF && header.e_shstrndx < shnum) {
    const Elf64_Shdr& strtab = sections[header.e_shstrndx];
    const std::vector<uint8_t> strings =
        bytes.block(strtab.sh_offset, strtab.sh_size, "the section name table");
    for (uint64_t i = 0; i < shnum; ++i) {
      if (sections[i].sh_name != 0) {
        names[i] = bytes.string_at(strings, sections[i].sh_name, "a section name");
      }
    }
  }
  for (uint64_t i = 0; i < shnum; ++i) {
    const Elf64_Shdr& s = sections[i];
    if (names[i] == section_name && s.sh_type != SHT_NOBITS) {
      std::vector<uint8_t> content =
          bytes.block(s.sh_offset, s.sh_size, "the plugin descriptor section");
      if (!result.section) result.section.emplace();
      result.section->insert(result.section->end(), content.begin(), content.end());
    }
    if (s.sh_type == SHT_DYNSYM) {
      if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= shnum) {
        ST_ERROR("plugin file '", path, "' is corrupt: malformed .dynsym");
      }
      const Elf64_Shdr& strtab = sections[s.sh_link];
      const std::vector<uint8_t> symbols =
          bytes.block(s.sh_offset, s.sh_size, "the dynamic symbol table");
      const std::vector<uint8_t> strings =
          bytes.block(strtab.sh_offset, strtab.sh_size, "the dynamic string table");
      const uint64_t count = s.sh_size / sizeof(Elf64_Sym);
      for (uint64_t k = 1; k < count; ++k) {  // entry 0 is the null symbol
        Elf64_Sym sym;
        std::memcpy(&sym, symbols.data() + k * sizeof(Elf64_Sym), sizeof(sym));
        if (sym.st_name == 0) continue;
        std::string name = bytes.string_at(strings, sym.st_name, "a symbol name");
        const unsigned bind = ELF64_ST_BIND(sym.st_info);
        if (sym.st_shndx == SHN_UNDEF) {
          (bind == STB_WEAK ? result.weak_imports : result.imports).push_back(std::move(name));
        } else if (bind == STB_GLOBAL || bind == STB_WEAK) {
          result.exports.push_back(std::move(name));
        }
      }
    }
  }
  std::sort(result.imports.begin(), result.imports.end());
  std::sort(result.weak_imports.begin(), result.weak_imports.end());
  std::sort(result.exports.begin(), result.exports.end());
  return result;
}

}  // namespace

ElfFile parse_elf_bytes(const std::vector<uint8_t>& data, const std::string& path,
                        const std::string& section_name) {
  return parse_elf(MemorySource(data), path, section_name);
}

ElfFile read_elf_file(const PluginFile& file, const std::string& section_name) {
  return parse_elf(FileSource(file), file.path(), section_name);
}

ElfFile read_elf_file(const std::string& path, const std::string& section_name) {
  return read_elf_file(PluginFile::open(path), section_name);
}

}  // namespace st::loader
