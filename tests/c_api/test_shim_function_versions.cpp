// c_api/shim_function_versions.txt == the headers' declarations and their
// version blocks == the dynamic exports of libstabletorch.so.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Versions = std::map<std::string, std::string>;

// name -> version, from every header under c_api/include.
Versions versions_from_headers(std::string* problems) {
  Versions out;
  const std::regex version_if(
      R"(^#\s*if\s+TORCH_FEATURE_VERSION\s*>=\s*(TORCH_VERSION_\d+_\d+_\d+))");
  const std::regex any_if(R"(^#\s*if)");
  const std::regex endif(R"(^#\s*endif)");
  const std::regex name_re(R"(([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  std::vector<fs::path> headers;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(STC_SOURCE_DIR) / "c_api/include")) {
    if (e.path().extension() == ".h") headers.push_back(e.path());
  }
  for (const fs::path& h : headers) {
    std::ifstream in(h);
    std::vector<std::string> blocks;  // "" for a non-version #if
    bool pending_export = false;      // AOTI_TORCH_EXPORT seen, name not yet
    std::string line;
    while (std::getline(in, line)) {
      const size_t first = line.find_first_not_of(" \t");
      const std::string s = first == std::string::npos ? "" : line.substr(first);
      std::smatch m;
      if (std::regex_search(s, m, version_if)) {
        blocks.push_back(m[1]);
        continue;
      }
      if (std::regex_search(s, any_if)) {
        blocks.emplace_back();
        continue;
      }
      if (std::regex_search(s, endif)) {
        if (!blocks.empty()) blocks.pop_back();
        continue;
      }
      // A declaration may break after its return type
      // ("AOTI_TORCH_EXPORT AOTITorchError" on a line of its own): the name
      // is then the first identifier followed by "(" on a later line.
      if (!pending_export &&
          (s.rfind("#", 0) == 0 || s.find("AOTI_TORCH_EXPORT") == std::string::npos)) {
        continue;
      }
      if (!std::regex_search(s, m, name_re)) {
        pending_export = true;
        continue;
      }
      pending_export = false;
      const std::string name = m[1];
      std::string version;
      for (const std::string& b : blocks) {
        if (!b.empty()) version = b;
      }
      if (version.empty()) {
        if (name.rfind("aoti_torch_", 0) == 0)
          version = "TORCH_VERSION_2_9_0";
        else if (name.rfind("stabletorch_", 0) == 0)
          version = "STABLETORCH_0_1_0";
        else
          *problems += name + " (" + h.filename().string() + ") is outside any version block\n";
      }
      out[name] = version;
    }
  }
  return out;
}

Versions versions_from_file() {
  Versions out;
  std::ifstream in(fs::path(STC_SOURCE_DIR) / "c_api/shim_function_versions.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    out[line.substr(0, colon)] = value;
  }
  return out;
}

std::set<std::string> exported_symbols() {
  std::set<std::string> out;
  const std::string cmd = std::string(STC_NM) + " -D --defined-only " + STC_C_API_LIBRARY;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[512];
  while (fgets(buf, sizeof(buf), p) != nullptr) {
    std::istringstream is(buf);
    std::string addr, type, name;
    if (is >> addr >> type >> name) out.insert(name);
  }
  pclose(p);
  return out;
}

std::string diff(const std::set<std::string>& a, const std::set<std::string>& b, const char* what) {
  std::string out;
  for (const auto& x : a) {
    if (b.count(x) == 0) out += "  " + x + " " + what + "\n";
  }
  return out;
}

std::set<std::string> keys(const Versions& v) {
  std::set<std::string> out;
  for (const auto& [k, _] : v) out.insert(k);
  return out;
}

}  // namespace

TEST(ShimFunctionVersions, FileEqualsHeaders) {
  std::string problems;
  const Versions headers = versions_from_headers(&problems);
  EXPECT_EQ(problems, "");
  const Versions file = versions_from_file();
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(diff(keys(headers), keys(file), "is declared but missing from the versions file") +
                diff(keys(file), keys(headers), "is in the versions file but declared nowhere"),
            "");
  for (const auto& [name, version] : headers) {
    auto it = file.find(name);
    if (it != file.end()) {
      EXPECT_EQ(it->second, version) << name;
    }
  }
}

TEST(ShimFunctionVersions, FileEqualsExports) {
  const std::set<std::string> exports = exported_symbols();
  ASSERT_FALSE(exports.empty()) << "could not run nm on " << STC_C_API_LIBRARY;
  const std::set<std::string> file = keys(versions_from_file());
  EXPECT_EQ(diff(file, exports, "is recorded but not exported") +
                diff(exports, file, "is exported but not recorded"),
            "");
  for (const std::string& s : exports) {
    const bool ok = s.rfind("aoti_torch_", 0) == 0 || s.rfind("torch_", 0) == 0 ||
                    s.rfind("stabletorch_", 0) == 0;
    EXPECT_TRUE(ok) << "exported symbol outside the C ABI prefixes: " << s;
  }
}
