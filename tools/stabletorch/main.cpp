// stabletorch: the command-line face of the core.
//
//   stabletorch ops [--namespace NS] [--load PLUGIN.so]...
//   stabletorch inspect PLUGIN.so
//   stabletorch run PLUGIN.so OP [ARG]... [--seed N]
//
// Exit codes: 0 success; 1 the operation failed (a load or a call was
// refused, with the reason on stderr); 2 bad usage; 3 `inspect` found that
// this core cannot run the plugin.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <stabletorch/version.h>
#include <st/core/error.h>
#include <st/core/tensor_print.h>
#include <st/dispatch/dispatcher.h>
#include <torch/csrc/stable/c/shim.h>

#include "cli_values.h"
#include "inspect_plugin.h"

// Declared by the C headers only from level 2.13 on (this tool builds at the
// SDK's level), but exported by every stabletorch core.
extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace {

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;
constexpr int kCannotRun = 3;

const char* const kMainHelp =
    "usage: stabletorch <command> [options]\n"
    "\n"
    "commands:\n"
    "  ops       list registered operators with their schemas and kernel keys\n"
    "  inspect   read a plugin file without running it: descriptor, imported\n"
    "            C-ABI symbols, whether this core can run it, then its operators\n"
    "  run       load a plugin and call one of its operators on arguments\n"
    "            given on the command line; print the results\n"
    "  version   print the core's version and stable-ABI level\n"
    "\n"
    "`stabletorch <command> --help` describes each command.\n"
    "exit codes: 0 success, 1 operation failed, 2 bad usage, 3 plugin cannot run here\n";

const char* const kOpsHelp =
    "usage: stabletorch ops [--namespace NS] [--load PLUGIN.so]...\n"
    "\n"
    "Lists every registered operator (aten and loaded plugins) as its schema, the\n"
    "dispatch keys that have kernels, and, when its def gave them, its tags and\n"
    "the Python module its library named (set_python_module).\n"
    "  --namespace NS   only operators of namespace NS (e.g. sample_op)\n"
    "  --load PATH      load a plugin first (repeatable)\n";

const char* const kInspectHelp =
    "usage: stabletorch inspect PLUGIN.so\n"
    "\n"
    "Reads the plugin's descriptor and dynamic symbols from the file (no code of\n"
    "it runs), prints the stable-ABI level it targets, the C-ABI symbols it\n"
    "imports with the level that introduced each, and whether this core can run\n"
    "it; if it can, loads it and lists its operators. Exit code 3 if it cannot.\n";

const char* const kRunHelp =
    "usage: stabletorch run PLUGIN.so OP [ARG]... [--seed N]\n"
    "\n"
    "Loads the plugin, calls OP (ns::name or ns::name.overload) with the ARGs\n"
    "matched to its schema in order (missing trailing arguments take their\n"
    "defaults), and prints the results. ARG syntax by schema type:\n"
    "  Tensor      KIND:SHAPE[:DTYPE]  KIND randn|rand|zeros|ones|arange|randint|mask,\n"
    "              SHAPE 2x3|6|scalar, DTYPE float32 (default)|float64|int64|bool|...\n"
    "  int, float  5, 2.5      bool  true|false      str  any text\n"
    "  ScalarType  float32|int64|...   Device  cpu|cuda:0    T[]  [a,b,c]    T?  none\n"
    "  --seed N    seed of the random tensors (default 0)\n";

// Loaded plugins stay loaded until the process ends.
std::vector<StableTorchPluginHandle> g_plugins;

const char* last_error() {
  const char* what = torch_exception_get_what_without_backtrace();
  return (what != nullptr && *what != '\0') ? what : "unknown error";
}

bool load_plugin(const std::string& path) {
  StableTorchPluginHandle h = nullptr;
  if (stabletorch_load_library(path.c_str(), &h) != AOTI_TORCH_SUCCESS) {
    std::fprintf(stderr, "stabletorch: %s\n", last_error());
    return false;
  }
  g_plugins.push_back(h);
  return true;
}

std::string keys_with_kernels(const st::OperatorHandle& op) {
  std::string keys;
  for (st::DispatchKey k : op.registeredKernelKeys()) {
    if (!keys.empty()) keys += ", ";
    keys += st::toString(k);
  }
  return keys.empty() ? "(no kernel)" : keys;
}

// The tags and Python module of an operator's def, one line each, when it
// has them.
std::string def_annotations(const st::OperatorHandle& op) {
  std::string out;
  const std::vector<st::Tag>& tags = op.tags();
  if (!tags.empty()) {
    out += "\n    tags: ";
    for (size_t i = 0; i < tags.size(); ++i) {
      if (i != 0) out += ", ";
      out += st::toString(tags[i]);
    }
  }
  if (const std::optional<st::PythonModule> py = op.pythonModule()) {
    out += "\n    python module: " + py->module;
    if (!py->context.empty()) out += " (" + py->context + ")";
  }
  return out;
}

// A value as the user wants to see it: tensors (alone or in a list) with
// their elements, as PyTorch prints them; anything else as the IValue.
std::string show(const st::IValue& v) {
  std::ostringstream os;
  if (v.isTensor()) {
    if (v.toTensor().defined()) {
      st::print(os, v.toTensor());
    } else {
      os << "undefined tensor";
    }
  } else if (v.isTensorList()) {
    os << "[";
    const auto& tensors = v.toTensorVector();
    for (size_t i = 0; i < tensors.size(); ++i) {
      os << (i == 0 ? "" : ",\n ");
      st::print(os, tensors[i]);
    }
    os << "]";
  } else {
    os << v;
  }
  return os.str();
}

void print_ops(const std::string& ns) {
  auto& d = st::Dispatcher::singleton();
  std::vector<std::string> lines;
  for (const st::OperatorName& name : d.getAllOpNames()) {
    if (!ns.empty() && name.getNamespace() != ns) continue;
    const auto op = d.findSchema(name);
    if (!op) continue;
    lines.push_back(op->schema().toString() + "\n    kernels: " + keys_with_kernels(*op) +
                    def_annotations(*op));
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& l : lines) std::printf("%s\n", l.c_str());
  std::printf("%zu operator%s\n", lines.size(), lines.size() == 1 ? "" : "s");
}

int cmd_ops(const std::vector<std::string>& args) {
  std::string ns;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::fputs(kOpsHelp, stdout);
      return kOk;
    } else if (args[i] == "--namespace" && i + 1 < args.size()) {
      ns = args[++i];
    } else if (args[i] == "--load" && i + 1 < args.size()) {
      if (!load_plugin(args[++i])) return kFailed;
    } else {
      std::fprintf(stderr, "stabletorch ops: unexpected argument '%s'\n%s", args[i].c_str(),
                   kOpsHelp);
      return kUsage;
    }
  }
  print_ops(ns);
  return kOk;
}

int cmd_inspect(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kInspectHelp, stdout);
    return kOk;
  }
  if (args.size() != 1) {
    std::fputs(kInspectHelp, stderr);
    return kUsage;
  }
  const st::cli::InspectResult r = st::cli::inspect_plugin(args[0], std::cout);
  if (!r.readable) return kFailed;
  if (!r.can_run) return kCannotRun;
  // Runnable: load it and list what it registers.
  StableTorchPluginHandle h = nullptr;
  if (stabletorch_load_library(args[0].c_str(), &h) != AOTI_TORCH_SUCCESS) {
    std::printf("load:       FAILED: %s\n", last_error());
    return kFailed;
  }
  g_plugins.push_back(h);
  const char* report = nullptr;
  if (stabletorch_plugin_report(h, &report) == AOTI_TORCH_SUCCESS) {
    std::printf("\n%s", report);
  }
  return kOk;
}

int cmd_run(const std::vector<std::string>& all_args) {
  std::vector<std::string> args;
  uint64_t seed = 0;
  for (size_t i = 0; i < all_args.size(); ++i) {
    if (all_args[i] == "--help" || all_args[i] == "-h") {
      std::fputs(kRunHelp, stdout);
      return kOk;
    } else if (all_args[i] == "--seed" && i + 1 < all_args.size()) {
      seed = std::stoull(all_args[++i]);
    } else {
      args.push_back(all_args[i]);
    }
  }
  if (args.size() < 2) {
    std::fputs(kRunHelp, stderr);
    return kUsage;
  }
  if (!load_plugin(args[0])) return kFailed;
  const std::string& full = args[1];
  const size_t dot = full.find('.', full.find("::") == std::string::npos ? 0 : full.find("::"));
  const std::string name = full.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : full.substr(dot + 1);
  auto& d = st::Dispatcher::singleton();
  const st::OperatorHandle op = d.findSchemaOrThrow(name, overload);
  const st::FunctionSchema& schema = op.schema();
  const auto& params = schema.arguments();
  const size_t given = args.size() - 2;
  ST_CHECK(given <= params.size(), full, " takes ", params.size(), " arguments, got ", given,
           "; schema: ", schema.toString());
  st::Stack stack;
  for (size_t i = 0; i < params.size(); ++i) {
    const st::Argument& p = params[i];
    if (i < given) {
      stack.push_back(st::cli::parse_value(p.type, args[2 + i], p.name, seed + i));
    } else {
      ST_CHECK(p.default_value.has_value(), full, ": missing argument '", p.name, "' (",
               p.type.toString(), "); schema: ", schema.toString());
      stack.push_back(st::cli::default_value(p.type, *p.default_value));
    }
  }
  std::printf("%s\n", schema.toString().c_str());
  for (size_t i = 0; i < stack.size(); ++i) {
    std::printf("  %s = %s\n", params[i].name.c_str(), show(stack[i]).c_str());
  }
  op.callBoxed(&stack);
  const auto& returns = schema.returns();
  for (size_t i = 0; i < stack.size(); ++i) {
    const std::string label = i < returns.size() && !returns[i].name.empty()
                                  ? returns[i].name
                                  : "result" + (stack.size() > 1 ? std::to_string(i) : "");
    std::printf("-> %s =\n%s\n", label.c_str(), show(stack[i]).c_str());
  }
  return kOk;
}

int cmd_version() {
  std::printf("stabletorch %s (stable-ABI level %llu.%llu.%llu)\n", stabletorch_version_string(),
              static_cast<unsigned long long>((stabletorch_abi_level() >> 56) & 0xFF),
              static_cast<unsigned long long>((stabletorch_abi_level() >> 48) & 0xFF),
              static_cast<unsigned long long>((stabletorch_abi_level() >> 40) & 0xFF));
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kMainHelp, argc < 2 ? stderr : stdout);
    return argc < 2 ? kUsage : kOk;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "ops") return cmd_ops(args);
    if (command == "inspect") return cmd_inspect(args);
    if (command == "run") return cmd_run(args);
    if (command == "version") return cmd_version();
    std::fprintf(stderr, "stabletorch: unknown command '%s'\n%s", command.c_str(), kMainHelp);
    return kUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stabletorch %s: %s\n", command.c_str(), e.what());
    return kFailed;
  }
}
