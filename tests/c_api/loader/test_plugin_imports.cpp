// The loader judges every plugin by the C-ABI functions it imports before
// running any of its code (c_api/src/loader/plugin_imports.h), on real
// shared objects: the plugins importing functions this runtime lacks
// abort the process if any of their code runs.
#include "loader/plugin_imports.h"

#include <stabletorch/c/loader.h>
#include <stabletorch/c/plugin_descriptor.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <string>

extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace {

std::string last_error() { return torch_exception_get_what_without_backtrace(); }

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const char* const kProxy = "aoti_torch_proxy_executor_call_function";
const char* const kUnknown = "torch_function_of_no_known_level";
const char* const kAddition = "stabletorch_addition_of_a_future_release";

TEST(PluginImports, AVerdictNamesWhatIsMissingAndWhoBuiltThePlugin) {
  const auto elf = st::loader::read_elf_file(MISSING_IMPORTS_PLUGIN, STABLETORCH_PLUGIN_SECTION);
  const st::loader::ImportVerdict v = st::loader::judge_imports(elf);
  EXPECT_EQ(v.built_with, "PyTorch's headers or the C ABI alone");
  EXPECT_EQ(v.missing, (std::vector<std::string>{kProxy, kAddition, kUnknown}));
  EXPECT_TRUE(contains(v.c_abi, "aoti_torch_library_init_fragment"));
  EXPECT_TRUE(contains(v.not_in_pytorch, kAddition));
  EXPECT_FALSE(contains(v.not_in_pytorch, kProxy));  // PyTorch declares it

  const auto sdk = st::loader::judge_imports(
      st::loader::read_elf_file(MISSING_IMPORTS_SDK_PLUGIN, STABLETORCH_PLUGIN_SECTION));
  EXPECT_EQ(sdk.built_with, "the stabletorch SDK");
  EXPECT_EQ(sdk.missing, v.missing);
}

TEST(PluginImports, TheLevelOfAMissingFunction) {
  EXPECT_EQ(st::loader::missing_function_level(kProxy), "stable-ABI level 2.9");
  EXPECT_EQ(st::loader::missing_function_level("torch_library_def_with_tags"),
            "stable-ABI level 2.12");
  EXPECT_EQ(st::loader::missing_function_level(kAddition),
            "a stabletorch addition newer than this runtime");
  EXPECT_EQ(st::loader::missing_function_level(kUnknown),
            "level unknown: not declared by PyTorch 2.15's stable headers either");
  // PyTorch's table knows what this runtime exports too.
  for (const auto& [name, level] : st::loader::exported_symbol_levels()) {
    const auto it = st::loader::pytorch_function_levels().find(name);
    if (it != st::loader::pytorch_function_levels().end() &&
        name != "aoti_torch_get_mutable_data_ptr" && name != "aoti_torch_get_const_data_ptr") {
      EXPECT_EQ(it->second, level) << name << ": our level differs from PyTorch's";
    }
  }
}

// Refused before dlopen: the plugin's constructor would abort the process,
// and one message lists every missing function with its level (dlopen
// would name only the first).
void expect_refused_before_running(const char* plugin, const std::string& built_with) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(plugin, &p), AOTI_TORCH_FAILURE);
  EXPECT_EQ(p, nullptr);
  const std::string msg = last_error();
  for (const std::string& part :
       {std::string("refusing to load '") + plugin + "' before running any of its code",
        "built with " + built_with, std::string("it imports 3 C-ABI functions this runtime"),
        std::string(kProxy) + " (stable-ABI level 2.9)",
        std::string(kUnknown) + " (level unknown: not declared by PyTorch 2.15's stable headers",
        std::string(kAddition) + " (a stabletorch addition newer than this runtime)"}) {
    EXPECT_NE(msg.find(part), std::string::npos) << "no '" << part << "' in:\n" << msg;
  }
  EXPECT_EQ(msg.find("aoti_torch_library_init_fragment"), std::string::npos)
      << "names an import this runtime has:\n"
      << msg;
  // Never mapped: the refusal came before dlopen.
  void* mapped = ::dlopen(plugin, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_EQ(mapped, nullptr) << plugin << " was mapped into the process";
  if (mapped != nullptr) ::dlclose(mapped);
}

TEST(PluginImports, APyTorchBuiltPluginLackingFunctionsIsRefusedBeforeItsCodeRuns) {
  expect_refused_before_running(MISSING_IMPORTS_PLUGIN, "PyTorch's headers or the C ABI alone");
}

TEST(PluginImports, AnSdkBuiltPluginLackingFunctionsIsRefusedBeforeItsCodeRuns) {
  expect_refused_before_running(MISSING_IMPORTS_SDK_PLUGIN, "the stabletorch SDK");
}

TEST(PluginImports, APluginWithoutDescriptorWhoseImportsExistLoads) {
  StableTorchPluginHandle p = nullptr;
  ASSERT_EQ(stabletorch_load_library(COMPLETE_IMPORTS_PLUGIN, &p), AOTI_TORCH_SUCCESS)
      << last_error();
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(p, &report), AOTI_TORCH_SUCCESS);
  EXPECT_NE(std::string(report).find("no stabletorch descriptor (built with PyTorch's headers or "
                                     "the C ABI alone): judged by its"),
            std::string::npos)
      << report;
  // ld.so knows the loaded file under its path too (same device and inode).
  void* mapped = ::dlopen(COMPLETE_IMPORTS_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(mapped, nullptr);
  if (mapped != nullptr) ::dlclose(mapped);
  ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << last_error();
}

}  // namespace
