// End-to-end tests of the plugin loader (stabletorch/c/loader.h) on real
// shared objects built by this suite: loading, calling, refusing, unloading.
#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/headeronly/version.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/tensor_impl.h>

extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace {

std::string last_error() { return torch_exception_get_what_without_backtrace(); }

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "stabletorch_loader_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Calls ns::add_one(x) through the C ABI.
AOTITorchError add_one(const char* op, int64_t x, int64_t* result) {
  StableIValue stack[1];
  std::memcpy(&stack[0], &x, sizeof(x));
  const AOTITorchError err = aoti_torch_call_dispatcher(op, "", stack);
  if (err == AOTI_TORCH_SUCCESS) std::memcpy(result, &stack[0], sizeof(*result));
  return err;
}

class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stabletorch_live_handle_count(&handles_before_);
    tensors_before_ = st::live_tensor_count();
    bytes_before_ = st::cpu_allocator_stats().bytes_in_use;
  }
  void TearDown() override {
    int64_t handles_after = 0;
    stabletorch_live_handle_count(&handles_after);
    EXPECT_EQ(handles_after, handles_before_) << "C-ABI handles leaked";
    EXPECT_EQ(st::live_tensor_count(), tensors_before_) << "tensors leaked";
    EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes_before_) << "memory leaked";
  }

 private:
  int64_t handles_before_ = 0;
  int64_t tensors_before_ = 0;
  int64_t bytes_before_ = 0;
};

TEST_F(LoaderTest, LoadsCallsAndUnloads) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  ASSERT_EQ(add_one("counter_a::add_one", 41, &r), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(r, 42);

  int64_t ops = 0, kernels = 0;
  ASSERT_EQ(stabletorch_plugin_counts(p, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(kernels, 2);
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(p, &report), AOTI_TORCH_SUCCESS);
  EXPECT_NE(std::string(report).find("counter_a::add_one"), std::string::npos) << report;
  // No descriptor: judged by its imports.
  EXPECT_NE(
      std::string(report).find("judged by its 7 C-ABI imports, which need stable-ABI level 2.9"),
      std::string::npos)
      << report;

  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
  EXPECT_NE(
      last_error().find("operator counter_a::add_one has no kernel (its library was unloaded"),
      std::string::npos)
      << last_error();
  // The handle is gone too.
  EXPECT_EQ(stabletorch_unload_library(p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("already unloaded"), std::string::npos) << last_error();
}

TEST_F(LoaderTest, LoadingTwiceIsIdempotent) {
  StableTorchPluginHandle a = nullptr, b = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &b), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(a, b);
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS);
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_SUCCESS) << "still loaded once";
  ASSERT_EQ(stabletorch_unload_library(b), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
}

TEST_F(LoaderTest, UnloadDeregistersLibrariesThePluginNeverDeletes) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(LEAKY_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  ASSERT_EQ(add_one("counter_leaky::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_leaky::add_one", 1, &r), AOTI_TORCH_FAILURE);
  // And it can be loaded again: its namespace is free.
  ASSERT_EQ(stabletorch_load_library(LEAKY_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

TEST_F(LoaderTest, HundredLoadUnloadCyclesLeakNothing) {
  for (int i = 0; i < 100; ++i) {
    StableTorchPluginHandle p = nullptr;
    ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
    int64_t r = 0;
    ASSERT_EQ(add_one("counter_a::add_one", i, &r), AOTI_TORCH_SUCCESS) << last_error();
    ASSERT_EQ(r, i + 1);
    ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
  }
  // TearDown checks handles, tensors and allocator bytes.
}

TEST_F(LoaderTest, SecondPluginDefiningTheSameNamespaceIsRefusedNamingBoth) {
  StableTorchPluginHandle a = nullptr, b = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_load_library(COUNTER_DUP_PLUGIN, &b), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("was not loaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("libcounter_dup_plugin.so"), std::string::npos) << msg;
  EXPECT_NE(msg.find("libcounter_plugin.so"), std::string::npos) << msg;
  // The first plugin is untouched.
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS);
}

TEST_F(LoaderTest, NewerTargetLevelIsRefusedBeforeAnyCodeRuns) {
  // The plugin aborts the process if its constructor runs.
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(EXPLODING_PLUGIN, &p), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find(std::string("targets stable-ABI level 2.99.0 but this core provides ") +
                     TORCH_VERSION),
            std::string::npos)
      << msg;
  EXPECT_EQ(p, nullptr);
}

TEST_F(LoaderTest, DescriptorWithinTheCoreLevelLoads) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_29_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(p, &report), AOTI_TORCH_SUCCESS);
  EXPECT_NE(std::string(report).find("targets stable-ABI 2.9.0"), std::string::npos) << report;
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS);
}

TEST_F(LoaderTest, UnloadIsRefusedWhileAPluginOwnedTensorLives) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(BLOB_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  StableIValue stack[1];
  const int64_t n = 5;
  std::memcpy(&stack[0], &n, sizeof(n));
  ASSERT_EQ(aoti_torch_call_dispatcher("blobns::make", "", stack), AOTI_TORCH_SUCCESS)
      << last_error();
  AtenTensorHandle t = nullptr;
  std::memcpy(&t, &stack[0], sizeof(t));
  int64_t numel = 0;
  ASSERT_EQ(aoti_torch_get_numel(t, &numel), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(numel, 5);

  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("1 tensor whose deleter lives in it is still alive"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("blob of 20 bytes"), std::string::npos) << msg;

  // Still loaded and usable; once the tensor dies the plugin's deleter runs
  // and unloading succeeds.
  ASSERT_EQ(aoti_torch_delete_tensor_object(t), AOTI_TORCH_SUCCESS);
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

TEST_F(LoaderTest, MissingFileGarbageTruncatedAndForeignFilesGiveCleanErrors) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library("/nonexistent/libnothing.so", &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("cannot load plugin '/nonexistent/libnothing.so': No such file"),
            std::string::npos)
      << last_error();
  ASSERT_EQ(stabletorch_load_library("", &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("cannot load plugin '': No such file"), std::string::npos)
      << last_error();

  const std::string garbage = temp_path("garbage.so");
  write_file(garbage, std::vector<char>(4096, 'x'));
  ASSERT_EQ(stabletorch_load_library(garbage.c_str(), &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("not an ELF file"), std::string::npos) << last_error();

  const std::vector<char> real = read_file(COUNTER_PLUGIN);
  ASSERT_GT(real.size(), 4096u);
  for (size_t cut : {size_t{10}, size_t{64}, size_t{200}, real.size() / 2, real.size() - 1}) {
    const std::string truncated = temp_path("truncated_" + std::to_string(cut) + ".so");
    write_file(truncated, std::vector<char>(real.begin(), real.begin() + static_cast<long>(cut)));
    EXPECT_EQ(stabletorch_load_library(truncated.c_str(), &p), AOTI_TORCH_FAILURE)
        << "cut at " << cut;
    EXPECT_FALSE(last_error().empty());
    std::remove(truncated.c_str());
  }

  // An ELF for another machine (e_machine patched to AArch64 = 183).
  std::vector<char> foreign = real;
  const uint16_t aarch64 = 183;
  std::memcpy(foreign.data() + 18, &aarch64, sizeof(aarch64));
  const std::string foreign_path = temp_path("aarch64.so");
  write_file(foreign_path, foreign);
  ASSERT_EQ(stabletorch_load_library(foreign_path.c_str(), &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("was built for AArch64; this machine is x86-64"), std::string::npos)
      << last_error();

  // Not a shared object: an ELF executable's type patched to ET_EXEC.
  std::vector<char> exec = real;
  const uint16_t et_exec = 2;
  std::memcpy(exec.data() + 16, &et_exec, sizeof(et_exec));
  const std::string exec_path = temp_path("exec.so");
  write_file(exec_path, exec);
  ASSERT_EQ(stabletorch_load_library(exec_path.c_str(), &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("is not a shared object"), std::string::npos) << last_error();

  std::remove(garbage.c_str());
  std::remove(foreign_path.c_str());
  std::remove(exec_path.c_str());
}

// Each refused file: the error names the path and says what is wrong.
void expect_refused(const std::string& path, const std::string& why) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(path.c_str(), &p), AOTI_TORCH_FAILURE) << path;
  EXPECT_EQ(p, nullptr);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("'" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(why), std::string::npos) << msg;
}

TEST_F(LoaderTest, DevicesFifosAndDirectoriesAreRefusedWithoutReadingThem) {
  // Reading any of these never ends (or, for the FIFO, never begins: no
  // writer); the loader must answer at once from the open descriptor.
  expect_refused("/dev/zero", "is a character device, not a regular file");
  expect_refused("/dev/urandom", "is a character device, not a regular file");
  const std::string fifo = temp_path("fifo.so");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(fifo, "is a FIFO (named pipe), not a regular file");
  std::remove(fifo.c_str());
  const std::string dir = temp_path("dir.so");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  expect_refused(dir, "is a directory, not a regular file");
  ::rmdir(dir.c_str());
}

TEST_F(LoaderTest, NonElfTruncatedAndForeignHeadersAreRefusedNamingThePath) {
  const std::vector<char> real = read_file(COUNTER_PLUGIN);
  ASSERT_GT(real.size(), 64u);
  const std::string empty = temp_path("empty.so");
  write_file(empty, {});
  expect_refused(empty, "not an ELF file");
  const std::string text = temp_path("text.so");
  write_file(text, std::vector<char>{'#', '!', '/', 'b', 'i', 'n', '/', 's', 'h', '\n'});
  expect_refused(text, "not an ELF file");
  const std::string header_only = temp_path("header_only.so");
  write_file(header_only, std::vector<char>(real.begin(), real.begin() + 64));
  expect_refused(header_only, "is truncated or corrupt: the section header table");

  // ELFCLASS32 with an i386 machine: said as such, not parsed as 64-bit.
  std::vector<char> elf32 = real;
  elf32[4] = 1;  // EI_CLASS = ELFCLASS32
  const uint16_t i386 = 3;
  std::memcpy(elf32.data() + 18, &i386, sizeof(i386));
  const std::string elf32_path = temp_path("elf32.so");
  write_file(elf32_path, elf32);
  expect_refused(elf32_path, "is a 32-bit ELF file (i386); this core loads only 64-bit");

  std::vector<char> big_endian = real;
  big_endian[5] = 2;  // EI_DATA = ELFDATA2MSB
  const std::string be_path = temp_path("big_endian.so");
  write_file(be_path, big_endian);
  expect_refused(be_path, "is a big-endian ELF file");

  std::vector<char> ppc = real;
  const uint16_t ppc64 = 21;
  std::memcpy(ppc.data() + 18, &ppc64, sizeof(ppc64));
  const std::string ppc_path = temp_path("ppc64.so");
  write_file(ppc_path, ppc);
  expect_refused(ppc_path, "was built for PowerPC64");

  for (const std::string& f : {empty, text, header_only, elf32_path, be_path, ppc_path}) {
    std::remove(f.c_str());
  }
}

TEST_F(LoaderTest, TwoDescriptorsAreRefusedNamingHowManyAndTheHighestLevel) {
  // The plugin aborts the process if its constructor runs.
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(TWO_DESCRIPTORS_PLUGIN, &p), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("carries 2 descriptors"), std::string::npos) << msg;
  EXPECT_NE(msg.find("targeting 2.10.0, 2.99.0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2.99.0, is judged"), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::string("targets stable-ABI level 2.99.0 but this core provides ") +
                     TORCH_VERSION),
            std::string::npos)
      << msg;
  EXPECT_EQ(p, nullptr);
}

TEST_F(LoaderTest, TheSameFileUnderAnotherPathIsTheSamePlugin) {
  // A hard link: another path, the same (st_dev, st_ino), as ld.so sees it.
  const std::string link = temp_path("hardlink.so");
  std::remove(link.c_str());
  if (::link(COUNTER_PLUGIN, link.c_str()) != 0) GTEST_SKIP() << "no hard links here";
  StableTorchPluginHandle a = nullptr, b = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_load_library(link.c_str(), &b), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(a, b);
  ASSERT_EQ(stabletorch_unload_library(b), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_SUCCESS) << "still loaded once";
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
  std::remove(link.c_str());
}

std::string report_of(StableTorchPluginHandle p) {
  const char* report = nullptr;
  if (stabletorch_plugin_report(p, &report) != AOTI_TORCH_SUCCESS) return last_error();
  return report;
}

TEST_F(LoaderTest, ASymbolicLinkIsNotResolvedAndNamesTheSamePlugin) {
  const std::string link = temp_path("symlink.so");
  std::remove(link.c_str());
  ASSERT_EQ(::symlink(COUNTER_PLUGIN, link.c_str()), 0);
  StableTorchPluginHandle a = nullptr, b = nullptr;
  ASSERT_EQ(stabletorch_load_library(link.c_str(), &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &b), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(a, b) << "one file, one plugin";
  // The report names the path the plugin was first loaded by, as given.
  EXPECT_EQ(report_of(a).rfind("plugin " + link + "\n", 0), 0u) << report_of(a);
  ASSERT_EQ(stabletorch_unload_library(b), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
  std::remove(link.c_str());
}

TEST_F(LoaderTest, ARelativePathIsNamedFromTheWorkingDirectory) {
  const std::string plugin = COUNTER_PLUGIN;
  const std::string dir = plugin.substr(0, plugin.rfind('/'));
  const std::string file = plugin.substr(plugin.rfind('/') + 1);
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof(cwd)), nullptr);
  ASSERT_EQ(::chdir(dir.c_str()), 0);
  StableTorchPluginHandle p = nullptr;
  const AOTITorchError loaded = stabletorch_load_library(("./" + file).c_str(), &p);
  const std::string error = loaded == AOTI_TORCH_SUCCESS ? "" : last_error();
  ASSERT_EQ(::chdir(cwd), 0);
  ASSERT_EQ(loaded, AOTI_TORCH_SUCCESS) << error;
  // getcwd names the directory without symbolic links; compare against it.
  ASSERT_EQ(::chdir(dir.c_str()), 0);
  char real_dir[4096];
  ASSERT_NE(::getcwd(real_dir, sizeof(real_dir)), nullptr);
  ASSERT_EQ(::chdir(cwd), 0);
  EXPECT_EQ(report_of(p).rfind("plugin " + std::string(real_dir) + "/" + file + "\n", 0), 0u)
      << report_of(p);
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

TEST_F(LoaderTest, AFileReplacedAtTheSamePathIsJudgedAndLoadedAsAnotherPlugin) {
  // The loader knows a plugin by its file, not by its path: a file renamed
  // over the path since the first load is another plugin, judged on its own.
  const std::string path = temp_path("replaced.so");
  const std::string next = temp_path("replaced.so.next");
  write_file(path, read_file(COUNTER_29_PLUGIN));
  StableTorchPluginHandle first = nullptr, second = nullptr;
  ASSERT_EQ(stabletorch_load_library(path.c_str(), &first), AOTI_TORCH_SUCCESS) << last_error();
  write_file(next, read_file(COUNTER_BARE_PLUGIN));
  ASSERT_EQ(std::rename(next.c_str(), path.c_str()), 0);
  ASSERT_EQ(stabletorch_load_library(path.c_str(), &second), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_NE(first, second);
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_29::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_bare::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(first), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_29::add_one", 1, &r), AOTI_TORCH_FAILURE);
  EXPECT_EQ(add_one("counter_bare::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(second), AOTI_TORCH_SUCCESS) << last_error();
  std::remove(path.c_str());
}

TEST_F(LoaderTest, APluginThatLoadsAnotherKeepsItsOwnRegistrations) {
  // counter_nesting's initializer loads counter_plugin, then registers its
  // own operators: those are still counted as (and undone with) its own.
  StableTorchPluginHandle outer = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_NESTING_PLUGIN, &outer), AOTI_TORCH_SUCCESS)
      << last_error();
  int64_t ops = 0, kernels = 0;
  ASSERT_EQ(stabletorch_plugin_counts(outer, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(kernels, 2);
  EXPECT_NE(report_of(outer).find("counter_nesting::add_one"), std::string::npos)
      << report_of(outer);
  StableTorchPluginHandle inner = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &inner), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_plugin_counts(inner, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(report_of(inner).find("counter_nesting"), std::string::npos) << report_of(inner);
  ASSERT_EQ(stabletorch_unload_library(outer), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_nesting::add_one", 1, &r), AOTI_TORCH_FAILURE);
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  // The reference the outer plugin took, and this test's.
  ASSERT_EQ(stabletorch_unload_library(inner), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(inner), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
}

TEST_F(LoaderTest, APluginThatStaysMappedAfterUnloadIsNotLoadedAgain) {
  // Linked -z nodelete: dlclose leaves its code mapped, so its static
  // initializers would not run for a second load. The unload still drops
  // everything it registered.
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_NODELETE_PLUGIN, &p), AOTI_TORCH_SUCCESS)
      << last_error();
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_nodelete::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(add_one("counter_nodelete::add_one", 1, &r), AOTI_TORCH_FAILURE);
  ASSERT_EQ(stabletorch_load_library(COUNTER_NODELETE_PLUGIN, &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("again: its code stayed mapped when it was unloaded"),
            std::string::npos)
      << last_error();
  // Other plugins load and unload as before.
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

TEST_F(LoaderTest, AFileTheProcessOpenedWithoutTheLoaderIsRefused) {
  // Its static initializers ran outside the loader (nothing attributed to a
  // plugin) and would not run again for a second load of the same file.
  void* bare = ::dlopen(COUNTER_BARE_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(bare, nullptr) << ::dlerror();
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_BARE_PLUGIN, &p), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("libcounter_bare_plugin.so"), std::string::npos) << msg;
  EXPECT_NE(msg.find("already loaded this file"), std::string::npos) << msg;
  // Once the process closed it, the loader loads it.
  ASSERT_EQ(::dlclose(bare), 0);
  ASSERT_EQ(stabletorch_load_library(COUNTER_BARE_PLUGIN, &p), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  EXPECT_EQ(add_one("counter_bare::add_one", 1, &r), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

TEST_F(LoaderTest, ARegistrationBlockThatThrowsFailsTheLoadAndLeavesNothing) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(THROWING_BLOCK_PLUGIN, &p), AOTI_TORCH_FAILURE);
  EXPECT_EQ(p, nullptr);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("libthrowing_block_plugin.so' was not loaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the registration block threw: the block failed after its first def"),
            std::string::npos)
      << msg;
  // Neither the def made before the throw, nor the kernel of the IMPL
  // block, nor the other namespace's fragment survived.
  for (const char* op : {"throwing_block::first", "throwing_block_other::other"}) {
    int64_t r = 0;
    EXPECT_EQ(add_one(op, 1, &r), AOTI_TORCH_FAILURE) << op << " is still callable";
  }
  // The namespace is free again: nothing of the plugin holds it.
  TorchLibraryHandle lib = nullptr;
  ASSERT_EQ(aoti_torch_library_init_def("throwing_block", __FILE__, __LINE__, &lib),
            AOTI_TORCH_SUCCESS)
      << last_error();
  ASSERT_EQ(aoti_torch_delete_library_object(lib), AOTI_TORCH_SUCCESS);
}

// Note [Exceptions from plugin initializers and finalizers]: the process
// ends, and the last words name the plugin, the step and the exception.
TEST(LoaderDeathTest, ExceptionFromAStaticInitializerNamesThePlugin) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  struct Case {
    const char* plugin;
    const char* message;  // regex
  };
  // A namespace-scope object's constructor, and a constructor function.
  for (const Case& c :
       {Case{THROWING_PLUGIN_STATIC_INIT,
             "plugin '.*libthrowing_plugin_1.so' threw 'static object constructor failed on "
             "purpose' out of its static initializers \\(at load\\)"},
        Case{THROWING_PLUGIN_CONSTRUCTOR,
             "plugin '.*libthrowing_plugin_2.so' threw 'constructor function failed on "
             "purpose' out of its static initializers \\(at load\\)"}}) {
    StableTorchPluginHandle p = nullptr;
    EXPECT_DEATH(stabletorch_load_library(c.plugin, &p), c.message);
  }
}

TEST(LoaderDeathTest, ExceptionFromAStaticDestructorNamesThePlugin) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        StableTorchPluginHandle p = nullptr;
        if (stabletorch_load_library(THROWING_PLUGIN_STATIC_DTOR, &p) != AOTI_TORCH_SUCCESS) {
          std::fprintf(stderr, "load failed: %s\n", last_error().c_str());
          std::exit(0);
        }
        stabletorch_unload_library(p);
        std::fprintf(stderr, "unload returned\n");
        std::exit(0);
      },
      "plugin '.*libthrowing_plugin_3.so' threw 'static object destructor failed on purpose' "
      "out of its static destructors \\(at unload\\)");
}

TEST_F(LoaderTest, BadHandlesAreReported) {
  EXPECT_EQ(stabletorch_unload_library(nullptr), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("null plugin handle"), std::string::npos) << last_error();
  int dummy = 0;
  EXPECT_EQ(stabletorch_unload_library(reinterpret_cast<StableTorchPluginHandle>(&dummy)),
            AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("foreign plugin handle"), std::string::npos) << last_error();
  StableTorchPluginHandle p = nullptr;
  EXPECT_EQ(stabletorch_load_library(nullptr, &p), AOTI_TORCH_FAILURE);
  EXPECT_EQ(stabletorch_load_library(COUNTER_PLUGIN, nullptr), AOTI_TORCH_FAILURE);
}

}  // namespace
