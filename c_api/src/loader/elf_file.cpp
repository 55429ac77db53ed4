#include "loader/elf_file.h"

#include <elf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string_view>

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

// Where the parser's bytes come from: the open file (its first bytes are
// read once and viewed in place, the rest read on demand) or a buffer (the
// fuzzer).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Precondition: [offset, offset + n) lies inside size().
  virtual void read(uint64_t offset, uint64_t n, void* dst) const = 0;
  // The n bytes at offset if they are already in memory, else null.
  // Precondition: [offset, offset + n) lies inside size().
  virtual const uint8_t* view(uint64_t offset, uint64_t n) const = 0;
};

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const PluginFile& file) : file_(file) {}
  uint64_t size() const override { return file_.size(); }
  void read(uint64_t offset, uint64_t n, void* dst) const override {
    file_.read_at(offset, n, dst);
  }
  const uint8_t* view(uint64_t offset, uint64_t n) const override { return file_.view(offset, n); }

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
  const uint8_t* view(uint64_t offset, uint64_t) const override {
    return data_.empty() ? nullptr : data_.data() + offset;
  }

 private:
  const std::vector<uint8_t>& data_;
};

// A checked range of the file's bytes: a view of bytes already in memory,
// or a copy of them when they lie beyond what was read at once. The bytes
// may sit at any alignment: read entries out with memcpy.
class Block {
 public:
  const uint8_t* data() const { return copy_.empty() ? view_ : copy_.data(); }
  uint64_t size() const { return size_; }

 private:
  friend class Bytes;
  const uint8_t* view_ = nullptr;
  uint64_t size_ = 0;
  std::vector<uint8_t> copy_;
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

  Block block(uint64_t offset, uint64_t size, const char* what) const {
    check_range(offset, size, what);
    Block out;
    out.size_ = size;
    if (size == 0) return out;
    out.view_ = source_.view(offset, size);
    if (out.view_ == nullptr) {
      out.copy_.resize(static_cast<size_t>(size));
      source_.read(offset, size, out.copy_.data());
    }
    return out;
  }

  void check_range(uint64_t offset, uint64_t size, const char* what) const {
    if (offset > source_.size() || size > source_.size() - offset) {
      ST_ERROR("plugin file '", path_, "' is truncated or corrupt: ", what, " (bytes ", offset,
               "..+", size, ") lies beyond the ", source_.size(), "-byte file");
    }
  }

  // A NUL-terminated string at `index` of a string table read whole.
  std::string_view string_at(const Block& table, uint64_t index, const char* what) const {
    if (index >= table.size()) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what, " index ", index, " is outside its ",
               table.size(), "-byte string table");
    }
    const auto* begin = reinterpret_cast<const char*>(table.data());
    const char* end = static_cast<const char*>(
        std::memchr(begin + index, '\0', static_cast<size_t>(table.size() - index)));
    if (end == nullptr) {
      ST_ERROR("plugin file '", path_, "' is corrupt: ", what, " is not NUL-terminated");
    }
    return std::string_view(begin + index, static_cast<size_t>(end - (begin + index)));
  }

  // Checks the string at `index` as string_at does, without measuring it:
  // in a table whose last byte is NUL every string is terminated.
  void check_string_at(const Block& table, uint64_t index, const char* what) const {
    if (index < table.size() && table.data()[table.size() - 1] == '\0') return;
    (void)string_at(table, index, what);
  }

  uint64_t size() const { return source_.size(); }

 private:
  const ByteSource& source_;
  const std::string& path_;
};

// Entry i of a table of T read whole (i checked by the caller).
template <typename T>
T entry(const Block& table, uint64_t i) {
  T value;
  std::memcpy(&value, table.data() + i * sizeof(T), sizeof(T));
  return value;
}

// A 32-bit field at `offset` of entry i of a table of T (i checked by the
// caller): what a pass over the section headers needs of most of them.
template <typename T>
uint32_t field32(const Block& table, uint64_t i, size_t offset) {
  uint32_t value;
  std::memcpy(&value, table.data() + i * sizeof(T) + offset, sizeof(value));
  return value;
}

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
                  const std::string& section_name, SymbolFilter keep) {
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
  // the file before anything is read from it. Names and tables are viewed
  // in place where the file's first bytes hold them (a small plugin's do).
  const uint64_t shnum = header.e_shnum;
  const Block sections =
      bytes.block(header.e_shoff, shnum * sizeof(Elf64_Shdr), "the section header table");
  Block names;
  const bool named = header.e_shstrndx != SHN_UNDEF && header.e_shstrndx < shnum;
  if (named) {
    const auto strtab = entry<Elf64_Shdr>(sections, header.e_shstrndx);
    names = bytes.block(strtab.sh_offset, strtab.sh_size, "the section name table");
  }
  // Every section's name is checked before any section is read.
  for (uint64_t i = 0; i < shnum && named; ++i) {
    const uint32_t name = field32<Elf64_Shdr>(sections, i, offsetof(Elf64_Shdr, sh_name));
    if (name != 0) bytes.check_string_at(names, name, "a section name");
  }
  // Checked above: a name, when present, is terminated inside the table.
  // Its length is compared first (the terminator's place), then its bytes.
  const size_t wanted_size = section_name.size();
  auto is_wanted = [&](uint32_t name) {
    return named && name != 0 && names.size() - name > wanted_size &&
           names.data()[name + wanted_size] == '\0' &&
           std::memcmp(names.data() + name, section_name.data(), wanted_size) == 0;
  };
  for (uint64_t i = 0; i < shnum; ++i) {
    const uint32_t type = field32<Elf64_Shdr>(sections, i, offsetof(Elf64_Shdr, sh_type));
    const bool wanted = type != SHT_NOBITS &&
                        is_wanted(field32<Elf64_Shdr>(sections, i, offsetof(Elf64_Shdr, sh_name)));
    if (!wanted && type != SHT_DYNSYM) continue;
    const auto s = entry<Elf64_Shdr>(sections, i);
    if (wanted) {
      const Block content = bytes.block(s.sh_offset, s.sh_size, "the plugin descriptor section");
      if (!result.section) result.section.emplace();
      result.section->insert(result.section->end(), content.data(),
                             content.data() + content.size());
    }
    if (s.sh_type == SHT_DYNSYM) {
      if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= shnum) {
        ST_ERROR("plugin file '", path, "' is corrupt: malformed .dynsym");
      }
      const auto strtab = entry<Elf64_Shdr>(sections, s.sh_link);
      const Block symbols = bytes.block(s.sh_offset, s.sh_size, "the dynamic symbol table");
      const Block strings =
          bytes.block(strtab.sh_offset, strtab.sh_size, "the dynamic string table");
      const uint64_t count = s.sh_size / sizeof(Elf64_Sym);
      for (uint64_t k = 1; k < count; ++k) {  // entry 0 is the null symbol
        const auto sym = entry<Elf64_Sym>(symbols, k);
        if (sym.st_name == 0) continue;
        const std::string_view name = bytes.string_at(strings, sym.st_name, "a symbol name");
        if (keep != nullptr && !keep(name)) continue;
        const unsigned bind = ELF64_ST_BIND(sym.st_info);
        if (sym.st_shndx == SHN_UNDEF) {
          (bind == STB_WEAK ? result.weak_imports : result.imports).emplace_back(name);
        } else if (bind == STB_GLOBAL || bind == STB_WEAK) {
          result.exports.emplace_back(name);
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
  return parse_elf(MemorySource(data), path, section_name, nullptr);
}

ElfFile read_elf_file(const PluginFile& file, const std::string& section_name, SymbolFilter keep) {
  return parse_elf(FileSource(file), file.path(), section_name, keep);
}

ElfFile read_elf_file(const std::string& path, const std::string& section_name) {
  return read_elf_file(PluginFile::open(path), section_name);
}

}  // namespace st::loader
