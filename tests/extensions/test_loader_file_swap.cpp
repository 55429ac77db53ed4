// The loader judges and loads one open file (Note [Judging and loading one
// file] in c_api/src/loader/plugin_registry.cpp): replacing the file at the
// path after the loader judged it must not change what gets loaded.
//
// This executable defines dlopen, so libstabletorch's calls come here
// first: when armed, the first call renames a plugin that aborts the
// process if any of its code runs (it targets 2.99) over the path being
// loaded, then forwards to the real dlopen. Had the loader opened the path
// again, the process would abort.
#include <stabletorch/c/loader.h>
#include <torch/csrc/stable/c/shim.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace {

// Function-local statics: dlopen may run before this file's globals exist.
std::string& swap_from() {  // renamed over swap_to() at the next dlopen
  static std::string s;
  return s;
}
std::string& swap_to() {
  static std::string s;
  return s;
}
std::vector<std::string>& dlopen_names() {
  static std::vector<std::string> v;
  return v;
}

using DlopenFn = void* (*)(const char*, int);

}  // namespace

extern "C" __attribute__((visibility("default"))) void* dlopen(const char* file, int mode) {
  static const auto real = reinterpret_cast<DlopenFn>(::dlsym(RTLD_NEXT, "dlopen"));
  if (file != nullptr) dlopen_names().emplace_back(file);
  if (!swap_from().empty()) {
    if (std::rename(swap_from().c_str(), swap_to().c_str()) != 0) std::perror("rename");
    swap_from().clear();
  }
  return real(file, mode);
}

namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "stabletorch_swap_" + std::to_string(::getpid()) + "_" + name;
}

void copy_file(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(LoaderFileSwap, ReplacingTheFileAfterItWasJudgedLoadsTheJudgedFile) {
  const std::string path = temp_path("plugin.so");
  const std::string impostor = temp_path("impostor.so");
  copy_file(COUNTER_29_PLUGIN, path);
  copy_file(EXPLODING_PLUGIN, impostor);

  dlopen_names().clear();
  swap_from() = impostor;
  swap_to() = path;
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(path.c_str(), &p), AOTI_TORCH_SUCCESS)
      << torch_exception_get_what_without_backtrace();
  EXPECT_TRUE(swap_from().empty()) << "the loader never called dlopen";
  // The judged file (counter_29) is what runs: its operator answers.
  StableIValue stack[1];
  const int64_t x = 41;
  std::memcpy(&stack[0], &x, sizeof(x));
  ASSERT_EQ(aoti_torch_call_dispatcher("counter_29::add_one", "", stack), AOTI_TORCH_SUCCESS)
      << torch_exception_get_what_without_backtrace();
  int64_t r = 0;
  std::memcpy(&r, &stack[0], sizeof(r));
  EXPECT_EQ(r, 42);
  // It was opened through its descriptor, not by path.
  ASSERT_FALSE(dlopen_names().empty());
  EXPECT_EQ(dlopen_names().back().rfind("/proc/self/fd/", 0), 0u) << dlopen_names().back();
  // The report still names the user's path.
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(p, &report), AOTI_TORCH_SUCCESS);
  EXPECT_NE(std::string(report).find(path), std::string::npos) << report;
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS)
      << torch_exception_get_what_without_backtrace();

  // The path now holds the impostor: judged on its own, it is refused.
  ASSERT_EQ(stabletorch_load_library(path.c_str(), &p), AOTI_TORCH_FAILURE);
  EXPECT_NE(std::string(torch_exception_get_what_without_backtrace()).find("2.99.0"),
            std::string::npos)
      << torch_exception_get_what_without_backtrace();
  std::remove(path.c_str());
}

}  // namespace
