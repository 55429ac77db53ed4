// The ELF reader (c_api/src/loader/elf_file.cpp), called directly: what it
// reads from a real shared object (imports, weak imports and exports,
// sorted; the descriptor section's bytes; the machine), and the error for
// each way a file can be wrong: not ELF, unknown class, not a shared
// object, wrong section header size, tables past the end of the file,
// string indices outside their table, an unterminated string, a malformed
// .dynsym, and every truncation. Files that are not regular files are
// refused before reading. (The loader's refusals of whole files through
// stabletorch_load_library are in tests/extensions/test_loader.cpp.)
#include <gtest/gtest.h>

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <stabletorch/c/plugin_descriptor.h>
#include <st/core/error.h>

#include "loader/elf_file.h"

namespace {

using st::loader::ElfFile;
using st::loader::machine_name;
using st::loader::parse_elf_bytes;
using st::loader::read_elf_file;

const std::string kSection = STABLETORCH_PLUGIN_SECTION;

std::vector<uint8_t> sample_bytes() {
  std::ifstream in(ELF_SAMPLE_PLUGIN, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string error_of_parse(const std::vector<uint8_t>& bytes) {
  try {
    (void)parse_elf_bytes(bytes, "x.so", kSection);
  } catch (const st::Error& e) {
    return e.what();
  }
  return "<parsed>";
}

Elf64_Ehdr header_of(const std::vector<uint8_t>& b) {
  Elf64_Ehdr h;
  std::memcpy(&h, b.data(), sizeof(h));
  return h;
}
void set_header(std::vector<uint8_t>& b, const Elf64_Ehdr& h) {
  std::memcpy(b.data(), &h, sizeof(h));
}
Elf64_Shdr section_at(const std::vector<uint8_t>& b, size_t i) {
  Elf64_Shdr s;
  std::memcpy(&s, b.data() + header_of(b).e_shoff + i * sizeof(Elf64_Shdr), sizeof(s));
  return s;
}
void set_section(std::vector<uint8_t>& b, size_t i, const Elf64_Shdr& s) {
  std::memcpy(b.data() + header_of(b).e_shoff + i * sizeof(Elf64_Shdr), &s, sizeof(s));
}
// The index of the first section of `type`.
size_t find_section(const std::vector<uint8_t>& b, uint32_t type) {
  for (size_t i = 0; i < header_of(b).e_shnum; ++i) {
    if (section_at(b, i).sh_type == type) return i;
  }
  ADD_FAILURE() << "no section of type " << type;
  return 0;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const std::string& x : v) {
    if (x == s) return true;
  }
  return false;
}

TEST(ElfFile, ReadsImportsExportsAndTheDescriptorSection) {
  const ElfFile elf = read_elf_file(ELF_SAMPLE_PLUGIN, kSection);
  EXPECT_EQ(elf.path, ELF_SAMPLE_PLUGIN);
  EXPECT_EQ(machine_name(elf.machine), machine_name(header_of(sample_bytes()).e_machine));
  EXPECT_TRUE(contains(elf.imports, "elf_sample_strong_import"));
  EXPECT_FALSE(contains(elf.imports, "elf_sample_weak_import"));
  EXPECT_TRUE(contains(elf.weak_imports, "elf_sample_weak_import"));
  EXPECT_TRUE(contains(elf.exports, "elf_sample_export"));
  EXPECT_FALSE(contains(elf.exports, "elf_sample_hidden"));
  EXPECT_FALSE(contains(elf.exports, "elf_sample_strong_import"));
  EXPECT_TRUE(std::is_sorted(elf.imports.begin(), elf.imports.end()));
  EXPECT_TRUE(std::is_sorted(elf.weak_imports.begin(), elf.weak_imports.end()));
  EXPECT_TRUE(std::is_sorted(elf.exports.begin(), elf.exports.end()));
  // Both descriptors (the compiler may align each, so padding can sit
  // between them; the decoder skips it, plugin_descriptor.cpp).
  ASSERT_TRUE(elf.section.has_value());
  ASSERT_GE(elf.section->size(), 2 * sizeof(StableTorchPluginDescriptor));
  std::vector<uint64_t> targets;
  std::vector<uint32_t> sdks;
  for (size_t at = 0; at + sizeof(StableTorchPluginDescriptor) <= elf.section->size(); at += 8) {
    if (std::memcmp(elf.section->data() + at, STABLETORCH_PLUGIN_MAGIC, 16) != 0) continue;
    StableTorchPluginDescriptor d;
    std::memcpy(&d, elf.section->data() + at, sizeof(d));
    targets.push_back(d.target_abi_version);
    sdks.push_back(d.sdk_version_number);
  }
  std::sort(targets.begin(), targets.end());
  std::sort(sdks.begin(), sdks.end());
  EXPECT_EQ(targets,
            (std::vector<uint64_t>{(2ULL << 56) | (9ULL << 48), (2ULL << 56) | (10ULL << 48)}));
  EXPECT_EQ(sdks, (std::vector<uint32_t>{90, 100}));
  // The same from bytes in memory.
  const ElfFile mem = parse_elf_bytes(sample_bytes(), "mem.so", kSection);
  EXPECT_EQ(mem.path, "mem.so");
  EXPECT_EQ(mem.imports, elf.imports);
  EXPECT_EQ(mem.exports, elf.exports);
  EXPECT_EQ(mem.section, elf.section);
}

TEST(ElfFile, AFilterListsOnlyTheSymbolsItKeeps) {
  const ElfFile all = read_elf_file(ELF_SAMPLE_PLUGIN, kSection);
  const st::loader::PluginFile file = st::loader::PluginFile::open(ELF_SAMPLE_PLUGIN);
  const ElfFile some = read_elf_file(file, kSection, [](std::string_view name) {
    return name.rfind("elf_sample_", 0) == 0 && name != "elf_sample_weak_import";
  });
  EXPECT_EQ(some.imports, (std::vector<std::string>{"elf_sample_strong_import"}));
  EXPECT_TRUE(some.weak_imports.empty());
  EXPECT_TRUE(contains(some.exports, "elf_sample_export"));
  for (const std::string& name : some.exports) EXPECT_EQ(name.rfind("elf_sample_", 0), 0u) << name;
  // Everything else is read as without a filter.
  EXPECT_TRUE(contains(all.weak_imports, "elf_sample_weak_import"));
  EXPECT_EQ(some.section, all.section);
  EXPECT_EQ(some.machine, all.machine);
}

TEST(ElfFile, AbsentSectionIsNoSection) {
  const ElfFile elf = read_elf_file(ELF_SAMPLE_PLUGIN, "no_such_section");
  EXPECT_FALSE(elf.section.has_value());
  EXPECT_TRUE(contains(elf.exports, "elf_sample_export"));
}

TEST(ElfFile, MachineNames) {
  EXPECT_EQ(machine_name(EM_X86_64), "x86-64");
  EXPECT_EQ(machine_name(EM_AARCH64), "AArch64");
  EXPECT_EQ(machine_name(EM_386), "i386");
  EXPECT_EQ(machine_name(EM_RISCV), "RISC-V");
  EXPECT_EQ(machine_name(9999), "machine 9999");
}

TEST(ElfFile, NotElfAndHeaderErrors) {
  EXPECT_EQ(error_of_parse({}), "'x.so' is not a shared library: not an ELF file (0 bytes)");
  EXPECT_EQ(error_of_parse(std::vector<uint8_t>(64, 'a')),
            "'x.so' is not a shared library: not an ELF file");
  std::vector<uint8_t> b = sample_bytes();
  b[EI_CLASS] = 7;
  EXPECT_NE(error_of_parse(b).find("'x.so' is an ELF file of unknown class 7; this core loads "
                                   "only 64-bit"),
            std::string::npos)
      << error_of_parse(b);
  b = sample_bytes();
  Elf64_Ehdr h = header_of(b);
  h.e_type = ET_REL;
  set_header(b, h);
  EXPECT_EQ(error_of_parse(b), "'x.so' is not a shared object (ELF type 1, expected ET_DYN = 3)");
  b = sample_bytes();
  h = header_of(b);
  h.e_shentsize = 32;
  set_header(b, h);
  EXPECT_EQ(error_of_parse(b),
            "plugin file 'x.so' is corrupt: section header size 32, expected 64");
  // A header cut short after the identification bytes.
  b = sample_bytes();
  b.resize(EI_NIDENT + 4);
  EXPECT_NE(error_of_parse(b).find("'x.so' is truncated or corrupt: the ELF header (bytes 0..+64) "
                                   "lies beyond the 20-byte file"),
            std::string::npos)
      << error_of_parse(b);
}

TEST(ElfFile, NoSectionHeadersReadsAsEmpty) {
  std::vector<uint8_t> b = sample_bytes();
  Elf64_Ehdr h = header_of(b);
  h.e_shnum = 0;
  h.e_shentsize = 0;  // ignored without sections
  set_header(b, h);
  const ElfFile elf = parse_elf_bytes(b, "x.so", kSection);
  EXPECT_TRUE(elf.imports.empty());
  EXPECT_TRUE(elf.exports.empty());
  EXPECT_FALSE(elf.section.has_value());
}

TEST(ElfFile, TablesPastTheEndOfTheFile) {
  std::vector<uint8_t> b = sample_bytes();
  Elf64_Ehdr h = header_of(b);
  h.e_shoff = b.size() - 10;
  set_header(b, h);
  EXPECT_NE(error_of_parse(b).find("plugin file 'x.so' is truncated or corrupt: the section "
                                   "header table"),
            std::string::npos)
      << error_of_parse(b);
  // A section whose offset + size wraps around 2^64.
  b = sample_bytes();
  const size_t dynsym = find_section(b, SHT_DYNSYM);
  Elf64_Shdr s = section_at(b, dynsym);
  s.sh_offset = ~uint64_t{0} - 8;
  set_section(b, dynsym, s);
  EXPECT_NE(error_of_parse(b).find("is truncated or corrupt: the dynamic symbol table"),
            std::string::npos)
      << error_of_parse(b);
  // A huge size is refused before anything is allocated for it.
  b = sample_bytes();
  s = section_at(b, dynsym);
  s.sh_size = uint64_t{1} << 60;
  set_section(b, dynsym, s);
  EXPECT_NE(error_of_parse(b).find("is truncated or corrupt: the dynamic symbol table (bytes "),
            std::string::npos)
      << error_of_parse(b);
  EXPECT_NE(error_of_parse(b).find("..+1152921504606846976) lies beyond the "), std::string::npos)
      << error_of_parse(b);
}

TEST(ElfFile, SectionNamesAreCheckedInATableThatDoesNotEndInNul) {
  // The section name table cut inside its last name: that name has no
  // terminator; every other name still has one.
  std::vector<uint8_t> b = sample_bytes();
  const Elf64_Ehdr h = header_of(b);
  uint32_t last_name = 0;
  for (size_t i = 0; i < h.e_shnum; ++i) last_name = std::max(last_name, section_at(b, i).sh_name);
  ASSERT_GT(last_name, 0u);
  Elf64_Shdr names = section_at(b, h.e_shstrndx);
  ASSERT_GT(names.sh_size, last_name + 3u) << "the last name is longer than 2 characters";
  names.sh_size = last_name + 2;
  set_section(b, h.e_shstrndx, names);
  EXPECT_EQ(error_of_parse(b),
            "plugin file 'x.so' is corrupt: a section name is not NUL-terminated");
  // A copy of the table at the end of the file, one byte longer and that
  // byte not NUL: every name is terminated, and the file reads as before.
  b = sample_bytes();
  names = section_at(b, h.e_shstrndx);
  const std::vector<uint8_t> table(b.begin() + static_cast<long>(names.sh_offset),
                                   b.begin() + static_cast<long>(names.sh_offset + names.sh_size));
  names.sh_offset = b.size();
  names.sh_size = table.size() + 1;
  b.insert(b.end(), table.begin(), table.end());
  b.push_back('x');
  set_section(b, h.e_shstrndx, names);
  const ElfFile elf = parse_elf_bytes(b, "x.so", kSection);
  EXPECT_TRUE(contains(elf.exports, "elf_sample_export"));
  EXPECT_TRUE(elf.section.has_value());
}

TEST(ElfFile, StringIndicesOutsideTheirTable) {
  std::vector<uint8_t> b = sample_bytes();
  Elf64_Shdr s = section_at(b, 1);
  s.sh_name = 0x7fffffff;
  set_section(b, 1, s);
  EXPECT_NE(error_of_parse(b).find("plugin file 'x.so' is corrupt: a section name index "
                                   "2147483647 is outside its"),
            std::string::npos)
      << error_of_parse(b);
  // The dynamic string table cut to 2 bytes: symbol names start past it.
  b = sample_bytes();
  const size_t dynsym = find_section(b, SHT_DYNSYM);
  const Elf64_Shdr sym = section_at(b, dynsym);
  const size_t dynstr = sym.sh_link;
  Elf64_Shdr str = section_at(b, dynstr);
  str.sh_size = 2;
  set_section(b, dynstr, str);
  EXPECT_NE(error_of_parse(b).find("plugin file 'x.so' is corrupt: a symbol name index "),
            std::string::npos)
      << error_of_parse(b);
  EXPECT_NE(error_of_parse(b).find("is outside its 2-byte string table"), std::string::npos)
      << error_of_parse(b);
  // Cut just after the start of the last symbol name: it has no NUL left.
  b = sample_bytes();
  uint32_t last_name = 0;
  for (uint64_t k = 1; k < sym.sh_size / sizeof(Elf64_Sym); ++k) {
    Elf64_Sym entry;
    std::memcpy(&entry, b.data() + sym.sh_offset + k * sizeof(Elf64_Sym), sizeof(entry));
    last_name = std::max(last_name, entry.st_name);
  }
  ASSERT_GT(last_name, 0u);
  str = section_at(b, dynstr);
  str.sh_size = last_name + 2;
  set_section(b, dynstr, str);
  EXPECT_EQ(error_of_parse(b),
            "plugin file 'x.so' is corrupt: a symbol name is not NUL-terminated");
}

TEST(ElfFile, MalformedDynsym) {
  std::vector<uint8_t> b = sample_bytes();
  const size_t dynsym = find_section(b, SHT_DYNSYM);
  Elf64_Shdr s = section_at(b, dynsym);
  s.sh_entsize = 16;
  set_section(b, dynsym, s);
  EXPECT_EQ(error_of_parse(b), "plugin file 'x.so' is corrupt: malformed .dynsym");
  b = sample_bytes();
  s = section_at(b, dynsym);
  s.sh_link = header_of(b).e_shnum;  // no such string table
  set_section(b, dynsym, s);
  EXPECT_EQ(error_of_parse(b), "plugin file 'x.so' is corrupt: malformed .dynsym");
}

TEST(ElfFile, EveryTruncationIsAnErrorOrAPrefixThatParses) {
  const std::vector<uint8_t> full = sample_bytes();
  ASSERT_GT(full.size(), 1000u);
  for (size_t cut = 0; cut < full.size(); cut += 13) {
    const std::vector<uint8_t> part(full.begin(), full.begin() + static_cast<long>(cut));
    try {
      (void)parse_elf_bytes(part, "cut.so", kSection);
      // The section headers sit at the end: a cut before them cannot parse.
      EXPECT_GE(cut, header_of(full).e_shoff + header_of(full).e_shnum * sizeof(Elf64_Shdr))
          << "a file cut at " << cut << " bytes parsed";
    } catch (const st::Error& e) {
      EXPECT_NE(std::string(e.what()).find("cut.so"), std::string::npos) << e.what();
    }
  }
}

TEST(ElfFile, OnlyRegularFilesAreRead) {
  const auto error_of_read = [](const std::string& path) -> std::string {
    try {
      (void)read_elf_file(path, kSection);
    } catch (const st::Error& e) {
      return e.what();
    }
    return "<read>";
  };
  EXPECT_EQ(error_of_read("/"), "plugin file '/' is a directory, not a regular file");
  EXPECT_EQ(error_of_read("/nonexistent-dir/x.so"),
            "cannot open plugin file '/nonexistent-dir/x.so': No such file or directory");
  // An empty regular file is read, and is not ELF.
  const std::string empty =
      ::testing::TempDir() + "elf_file_empty_" + std::to_string(::getpid()) + ".so";
  { std::ofstream(empty, std::ios::binary); }
  EXPECT_EQ(error_of_read(empty),
            "'" + empty + "' is not a shared library: not an ELF file (0 bytes)");
  std::remove(empty.c_str());
}

}  // namespace
