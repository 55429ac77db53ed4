// The generated CUDA registrations (register_CUDA.cpp, from
// native_functions.yaml): every entry with a `CUDA:` kernel has a kernel
// for the CUDA key, and no aten operator has one that the YAML does not
// give it. Registration needs no device, so these run everywhere; the
// backend module registers them when it loads, so each test loads it first.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <st/cuda/cuda_backend.h>
#include <st/dispatch/dispatcher.h>

namespace {

// "name.overload" of every entry of the YAML whose dispatch section gives
// the CUDA key a kernel (alone or in a list: `CPU, CUDA, Meta: empty`). The
// file's format is fixed by tools/codegen/gen_native.py: `- func: ` starts
// an entry, its dispatch lines are indented four spaces.
std::set<std::string> yaml_cuda_entries() {
  std::ifstream in(ST_NATIVE_FUNCTIONS_YAML);
  EXPECT_TRUE(in.good()) << "cannot read " << ST_NATIVE_FUNCTIONS_YAML;
  std::set<std::string> entries;
  std::string line;
  std::string current;
  bool in_dispatch = false;
  while (std::getline(in, line)) {
    if (line.rfind("- func: ", 0) == 0) {
      current = line.substr(8, line.find('(') - 8);
      in_dispatch = false;
    } else if (line == "  dispatch:") {
      in_dispatch = true;
    } else if (in_dispatch && line.rfind("    ", 0) == 0) {
      std::stringstream keys(line.substr(4, line.find(':') - 4));
      std::string key;
      while (std::getline(keys, key, ',')) {
        key.erase(0, key.find_first_not_of(' '));
        if (key == "CUDA") entries.insert(current);
      }
    } else {
      in_dispatch = false;
    }
  }
  return entries;
}

std::string full_name(const st::OperatorName& name) {
  return name.overload_name.empty() ? name.name : name.name + "." + name.overload_name;
}

bool has_cuda_kernel(const st::OperatorHandle& op) {
  const std::vector<st::DispatchKey> keys = op.registeredKernelKeys();
  return std::find(keys.begin(), keys.end(), st::DispatchKey::CUDA) != keys.end();
}

TEST(RegisterCudaTest, EveryCudaEntryOfTheYamlIsRegistered) {
  st::cuda::load_backend();
  const std::set<std::string> entries = yaml_cuda_entries();
  // The backend's operator set: a parse that finds far fewer lost entries.
  EXPECT_GE(entries.size(), 225u);
  for (const std::string& entry : entries) {
    const size_t dot = entry.find('.');
    const std::string name = "aten::" + entry.substr(0, dot);
    const std::string overload = dot == std::string::npos ? "" : entry.substr(dot + 1);
    const auto op = st::Dispatcher::singleton().findSchema({name, overload});
    ASSERT_TRUE(op.has_value()) << entry << " has no schema";
    EXPECT_TRUE(has_cuda_kernel(*op)) << entry << " has no CUDA kernel";
  }
}

TEST(RegisterCudaTest, NoAtenOperatorHasACudaKernelOutsideTheYaml) {
  st::cuda::load_backend();
  const std::set<std::string> entries = yaml_cuda_entries();
  auto& d = st::Dispatcher::singleton();
  for (const st::OperatorName& name : d.getAllOpNames()) {
    if (name.getNamespace() != "aten") continue;
    const auto op = d.findSchema(name);
    if (!op || !has_cuda_kernel(*op)) continue;
    const std::string entry = full_name(name).substr(6);  // without "aten::"
    EXPECT_EQ(entries.count(entry), 1u) << entry << " has a CUDA kernel the YAML does not give";
  }
}

}  // namespace
