// conformance_driver: one host for two runtimes. It dlopens a runtime
// (PyTorch's libtorch_cpu.so or libstabletorch.so) by path, resolves the
// stable C ABI by name, dlopens plugins into it, and runs operator cases
// through call_dispatcher, printing one result line per case. The same
// binary runs against both runtimes; conformance/scripts/ compares the
// outputs.
//
//   conformance_driver --runtime LIB [--plugin SO]... --cases FILE
//                      [--skip N] [--abi-version HEX]
//   conformance_driver --runtime LIB --bench        (timing; see below)
//
// Case lines (tab-separated; docs/conformance.md has the grammar):
//   id  op  overload  return-types  argument-tokens
// Cases go through torch_call_dispatcher (at --abi-version), those whose id
// ends in "@aoti" through aoti_torch_call_dispatcher.
// Result lines:
//   id  OK   <return>...  |  <input tensor after the call>...
//   id  ERR  <message>
// Setup failures print one line and exit non-zero:
//   RUNTIMEFAIL <reason>   (exit 3)      PLUGINFAIL <reason> (exit 4)
//
// --bench (conformance/scripts/sweep.py, docs/conformance.md "The sweep")
// reads commands from stdin and answers each with one line, so that a
// controller can alternate two driver processes (one per runtime) call by
// call:
//   PREP <case line>  -> READY | ERR <message>   make the inputs, call once
//   TIME <n>          -> NS <nanoseconds per call> | ERR <message>
//   PROBE <name> <n>  -> NS <nanoseconds per round> | ERR <message>
//                        n rounds of a fixed C-ABI call sequence (metadata
//                        reads, empty({1}); see Driver::probe)
//   QUIT
// TIME builds n argument stacks first (a new handle per tensor argument,
// as a plugin's `from` makes), then times n calls (the thread's CPU time),
// each followed by deleting what it returned: the timed work is the call and the release of
// its results, the same C calls in both runtimes. The inputs persist
// between calls (in-place and out= operators keep writing into them).
// After LOADED it prints THREADS <n> (torch_get_num_threads; -1 when the
// runtime lacks it) so the controller can check both runtimes run on one
// thread.
#include <dlfcn.h>
#include <link.h>
#include <time.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "element_codec.h"
#include "runtime_api.h"

namespace conformance {
namespace {

struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

std::vector<int64_t> parse_ints(const std::string& text) {
  std::vector<int64_t> values;
  if (text.empty() || text == "-") return values;
  for (const std::string& item : split(text, ',')) values.push_back(std::stoll(item));
  return values;
}

std::string join_ints(const int64_t* values, int64_t n) {
  std::string text;
  for (int64_t i = 0; i < n; ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text;
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string unescape(const std::string& text) {  // %20 -> ' ', %25 -> '%', %09 -> tab
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return text;
}

class Driver {
 public:
  Driver(void* library, const RuntimeApi& api, uint64_t abi_version)
      : lib_(library), api_(api), abi_version_(abi_version) {}

  // Runs one case line and returns its result line.
  std::string run(const std::string& line) {
    const std::vector<std::string> fields = split(line, '\t');
    if (fields.size() < 5)
      return fields.empty() ? "?\tERR\tmalformed case" : fields[0] + "\tERR\tmalformed case";
    const std::string& id = fields[0];
    inputs_.clear();
    std::string result;
    try {
      const bool unversioned = id.size() > 5 && id.compare(id.size() - 5, 5, "@aoti") == 0;
      result =
          id + "\t" + call(fields[1], fields[2], split(fields[3], ','), fields[4], unversioned);
    } catch (const std::exception& e) {  // a malformed token (std::stoll, ...) included
      result = id + "\tSETUP\t" + one_line(e.what());
    }
    for (const Input& input : inputs_) api_.delete_tensor(input.handle);
    inputs_.clear();
    return result;
  }

  // Benchmark mode: makes the inputs of a case line and calls it once.
  // Returns "READY" or "ERR\t<message>".
  std::string prepare(const std::string& line) {
    release_inputs();
    prepared_ = false;
    const std::vector<std::string> fields = split(line, '\t');
    if (fields.size() < 5) return "ERR\tmalformed case";
    op_ = fields[1];
    overload_ = fields[2];
    unversioned_ = fields[0].size() > 5 && fields[0].compare(fields[0].size() - 5, 5, "@aoti") == 0;
    tokens_.clear();
    for (const std::string& t : split(fields[4], ' '))
      if (!t.empty()) tokens_.push_back(t);
    return_types_.clear();
    for (const std::string& r : split(fields[3], ','))
      if (!r.empty() && r != "-") return_types_.push_back(r);
    try {
      reuse_inputs_ = false;
      std::vector<StableIValue> stack = build_stack();
      reuse_inputs_ = true;
      if (invoke(stack) != 0) return "ERR\t" + last_error();
      release_returns(stack);
    } catch (const std::exception& e) {
      reuse_inputs_ = false;
      return std::string("ERR\t") + one_line(e.what());
    }
    prepared_ = true;
    return "READY";
  }

  // Benchmark mode: times `n` calls of the prepared case. Returns
  // "NS\t<nanoseconds per call>" or "ERR\t<message>". When a call fails,
  // the argument stacks not yet called are not released (the controller
  // drops the case; this happens once per such case).
  std::string sample(size_t n) {
    if (!prepared_) return "ERR\tno case prepared";
    if (n == 0) return "ERR\tTIME needs at least one call";
    std::vector<std::vector<StableIValue>> stacks;
    stacks.reserve(n);
    try {
      for (size_t k = 0; k < n; ++k) stacks.push_back(build_stack());
    } catch (const std::exception& e) {
      return std::string("ERR\t") + one_line(e.what());
    }
    const double start = thread_cpu_ns();
    for (std::vector<StableIValue>& stack : stacks) {
      if (invoke(stack) != 0) {
        prepared_ = false;
        return "ERR\t" + last_error();
      }
      release_returns(stack);
    }
    return ns_answer((thread_cpu_ns() - start) / static_cast<double>(n));
  }

  // Benchmark mode: times `n` rounds of one of the C-ABI calls a plugin
  // makes around its kernels, the same calls in both runtimes. Returns
  // "NS\t<nanoseconds per round>" or "ERR\t<message>". Probes:
  //   metadata  get_sizes, get_strides and get_data_ptr of a 1-element
  //             float tensor (three calls per round)
  //   empty1    empty_strided of sizes [1], strides [1], float, CPU, then
  //             delete_tensor_object
  //   boxed_noop  what a plugin pays to call another plugin's boxed no-op
  //             kernel: new_tensor_handle of a 1-element tensor,
  //             aoti_torch_call_dispatcher of conformance_probe::noop (a
  //             CPU kernel registered through aoti_torch_library_*, which
  //             returns its argument), delete_tensor_object of the result
  //   load:<path>  load and unload the plugin at <path> as each runtime's
  //             host does: stabletorch_load_library + unload where the
  //             runtime has its loader, else (PyTorch: torch.ops.load_library)
  //             dlopen(RTLD_NOW | RTLD_LOCAL) + dlclose
  std::string probe(const std::string& name, size_t n) {
    if (n == 0) return "ERR\tPROBE needs at least one round";
    const int64_t one = 1;
    const int32_t f32 = dtype("f32");
    const int32_t cpu = api_.device_type_cpu();
    double start = 0;
    if (name == "metadata") {
      Handle t = nullptr;
      if (api_.empty_strided(1, &one, &one, f32, cpu, 0, &t) != 0) return "ERR\t" + last_error();
      int64_t* sizes = nullptr;
      int64_t* strides = nullptr;
      void* data = nullptr;
      Error failed = 0;
      start = thread_cpu_ns();
      for (size_t k = 0; k < n; ++k) {
        failed |= api_.get_sizes(t, &sizes);
        failed |= api_.get_strides(t, &strides);
        failed |= api_.get_data_ptr(t, &data);
        asm volatile("" : : "r"(sizes), "r"(strides), "r"(data) : "memory");
      }
      const double ns = thread_cpu_ns() - start;
      api_.delete_tensor(t);
      if (failed != 0) return "ERR\t" + last_error();
      return ns_answer(ns / static_cast<double>(n));
    }
    if (name == "empty1") {
      start = thread_cpu_ns();
      for (size_t k = 0; k < n; ++k) {
        Handle t = nullptr;
        if (api_.empty_strided(1, &one, &one, f32, cpu, 0, &t) != 0) return "ERR\t" + last_error();
        api_.delete_tensor(t);
      }
      return ns_answer((thread_cpu_ns() - start) / static_cast<double>(n));
    }
    if (name == "boxed_noop") {
      const std::string setup = register_noop();
      if (!setup.empty()) return "ERR\t" + setup;
      Handle t = nullptr;
      if (api_.empty_strided(1, &one, &one, f32, cpu, 0, &t) != 0) return "ERR\t" + last_error();
      Error failed = 0;
      start = thread_cpu_ns();
      for (size_t k = 0; k < n && failed == 0; ++k) {
        Handle arg = nullptr;
        failed |= api_.new_tensor_handle(t, &arg);
        StableIValue stack[1] = {reinterpret_cast<uintptr_t>(arg)};
        failed |= api_.call_dispatcher("conformance_probe::noop", "", stack);
        failed |= api_.delete_tensor(reinterpret_cast<Handle>(static_cast<uintptr_t>(stack[0])));
      }
      const double ns = thread_cpu_ns() - start;
      api_.delete_tensor(t);
      if (failed != 0) return "ERR\t" + last_error();
      return ns_answer(ns / static_cast<double>(n));
    }
    if (name.rfind("load:", 0) == 0) {
      const std::string path = name.substr(5);
      const bool loader = api_.load_library != nullptr && api_.unload_library != nullptr;
      start = thread_cpu_ns();
      for (size_t k = 0; k < n; ++k) {
        if (loader) {
          Handle plugin = nullptr;
          if (api_.load_library(path.c_str(), &plugin) != 0 || api_.unload_library(plugin) != 0)
            return "ERR\t" + last_error();
        } else {
          void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
          if (handle == nullptr) return std::string("ERR\t") + one_line(dlerror());
          dlclose(handle);
        }
      }
      return ns_answer((thread_cpu_ns() - start) / static_cast<double>(n));
    }
    return "ERR\tunknown probe " + name;
  }

  ~Driver() {
    if (noop_impl_ != nullptr) api_.delete_library(noop_impl_);
    if (noop_def_ != nullptr) api_.delete_library(noop_def_);
  }

  static std::string ns_answer(double ns) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "NS\t%.3f", ns);
    return buffer;
  }

  // The calling thread's CPU time: time the thread spends descheduled (a
  // busy machine preempts a sample for tens of milliseconds) is not the
  // operator's; page faults and other kernel work on its behalf are. Both
  // runtimes run the operator on this thread (one thread each).
  static double thread_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
  }

  void release_inputs() {
    for (const Input& input : inputs_) api_.delete_tensor(input.handle);
    inputs_.clear();
    reuse_inputs_ = false;
  }

 private:
  // The boxed_noop probe's kernel: returns its argument, which it owns, as
  // its result (stack[0] unchanged).
  static void noop_kernel(StableIValue*, uint64_t, uint64_t) {}

  // Defines conformance_probe::noop(Tensor x) -> Tensor with a CPU kernel,
  // once. Returns "" or what failed.
  std::string register_noop() {
    if (noop_impl_ != nullptr) return "";
    if (api_.library_init_def == nullptr || api_.library_init_impl == nullptr ||
        api_.library_def == nullptr || api_.library_impl == nullptr ||
        api_.delete_library == nullptr)
      return "the runtime lacks the aoti_torch_library_* functions";
    if (api_.library_init_def("conformance_probe", __FILE__, __LINE__, &noop_def_) != 0 ||
        api_.library_def(noop_def_, "noop(Tensor x) -> Tensor") != 0 ||
        api_.library_init_impl("conformance_probe", "CPU", __FILE__, __LINE__, &noop_impl_) != 0 ||
        api_.library_impl(noop_impl_, "noop", &noop_kernel) != 0)
      return "registering conformance_probe::noop failed: " + last_error();
    return "";
  }

  Handle noop_def_ = nullptr;
  Handle noop_impl_ = nullptr;

  struct Input {
    Handle handle;
    std::string dtype;
    const char* begin;  // the storage's bytes, for aliasing checks
    const char* end;
  };

  void check(Error err, const char* what) {
    if (err != 0) throw CaseError(std::string(what) + " failed: " + last_error());
  }

  std::string last_error() {
    const char* what = api_.exception_what != nullptr ? api_.exception_what() : nullptr;
    return what != nullptr ? one_line(what) : "(no message)";
  }

  int32_t dtype(const std::string& name) {
    int32_t code = 0;
    if (!dtype_code(lib_, name, code)) throw CaseError("unknown dtype " + name);
    return code;
  }

  // t:<dtype>:<sizes>:<strides>:<offset>:<kind><seed>
  StableIValue make_tensor(const std::string& token) {
    if (reuse_inputs_) {  // benchmark mode: a new handle to the input made by prepare()
      if (tensor_cursor_ >= inputs_.size())
        throw CaseError("more tensor tokens than prepared inputs");
      Handle owned = nullptr;
      check(api_.new_tensor_handle(inputs_[tensor_cursor_++].handle, &owned), "new_tensor_handle");
      return reinterpret_cast<uintptr_t>(owned);
    }
    const std::vector<std::string> f = split(token, ':');
    if (f.size() != 6) throw CaseError("bad tensor token " + token);
    const std::string& name = f[1];
    const std::vector<int64_t> sizes = parse_ints(f[2]);
    const std::vector<int64_t> strides = parse_ints(f[3]);
    const int64_t offset = std::stoll(f[4]);
    const char kind = f[5].empty() ? 'r' : f[5][0];
    uint64_t seed = f[5].size() > 1 ? std::stoull(f[5].substr(1)) : 0;
    if (sizes.size() != strides.size())
      throw CaseError("sizes and strides differ in rank: " + token);
    const int elem = element_size(name);
    if (elem == 0) throw CaseError("the driver cannot fill dtype " + name);
    // Elements the view reaches: offset + sum((size-1)*stride) + 1.
    int64_t storage = offset + 1;
    bool empty = false;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) empty = true;
      storage += (sizes[d] - 1) * strides[d];
    }
    if (empty) storage = offset;
    Handle base = nullptr;
    const int64_t one = 1;
    check(api_.empty_strided(1, &storage, &one, dtype(name), api_.device_type_cpu(), 0, &base),
          "empty_strided");
    void* data = nullptr;
    check(api_.get_data_ptr(base, &data), "get_data_ptr");
    for (int64_t i = 0; i < storage; ++i)
      write_element(name, kind, splitmix64(seed), static_cast<char*>(data) + i * elem);
    Handle view = nullptr;
    const Error err = api_.reinterpret_tensor(base, static_cast<int64_t>(sizes.size()),
                                              sizes.data(), strides.data(), offset, &view);
    api_.delete_tensor(base);
    check(err, "_reinterpret_tensor");
    const char* begin = static_cast<const char*>(data);
    inputs_.push_back({view, name, begin, begin + storage * elem});
    Handle owned = nullptr;  // the stack's own reference; ours stays for the report
    check(api_.new_tensor_handle(view, &owned), "new_tensor_handle");
    return reinterpret_cast<uintptr_t>(owned);
  }

  // g:<seed>: a new CPU generator seeded with <seed>; the stack owns it.
  StableIValue make_generator(const std::string& value) {
    const uint64_t seed = std::stoull(value);
    Handle g = nullptr;
    if (api_.new_generator != nullptr) {
      check(api_.new_generator(api_.device_type_cpu(), seed, &g), "stabletorch_new_generator");
    } else if (api_.create_cpu_generator != nullptr && api_.delete_generator != nullptr) {
      // An at::Generator built in place in memory from operator new: that
      // is an owning AtenGeneratorHandle, which torch_delete_generator
      // destroys and frees.
      g = ::operator new(sizeof(void*));
      api_.create_cpu_generator(g, seed);
    } else {
      throw CaseError("this runtime cannot make a generator");
    }
    return reinterpret_cast<uintptr_t>(g);
  }

  // One argument starting at tokens[i]; advances i past it.
  StableIValue parse_arg(const std::vector<std::string>& tokens, size_t& i) {
    if (i >= tokens.size()) throw CaseError("missing argument token");
    const std::string token = tokens[i++];
    const std::string kind = token.substr(0, token.find(':'));
    const std::string value =
        token.find(':') == std::string::npos ? "" : token.substr(token.find(':') + 1);
    StableIValue v = 0;
    if (kind == "n") return 0;
    if (kind == "o") {
      const StableIValue inner = parse_arg(tokens, i);
      StableIValue* slot = nullptr;
      check(api_.new_stable_ivalue(&slot), "torch_new_stable_ivalue");
      *slot = inner;
      return reinterpret_cast<uintptr_t>(slot);
    }
    if (kind == "l") {
      const size_t n = std::stoul(value);
      Handle list = nullptr;
      check(api_.new_list(n, &list), "torch_new_list_reserve_size");
      for (size_t k = 0; k < n; ++k)
        check(api_.list_push_back(list, parse_arg(tokens, i)), "torch_list_push_back");
      return reinterpret_cast<uintptr_t>(list);
    }
    if (kind == "t") return make_tensor(token);
    if (kind == "g") return make_generator(value);
    if (kind == "i") {
      const int64_t x = std::stoll(value);
      std::memcpy(&v, &x, sizeof(x));
    } else if (kind == "f") {
      const double x = std::strtod(value.c_str(), nullptr);
      std::memcpy(&v, &x, sizeof(x));
    } else if (kind == "b") {
      v = value == "1" ? 1 : 0;
    } else if (kind == "d") {
      v = static_cast<uint32_t>(dtype(value));
    } else if (kind == "dev") {  // dev:cpu:<index>
      const std::vector<std::string> f = split(value, ':');
      const int32_t index = f.size() > 1 ? std::stoi(f[1]) : -1;
      v = (static_cast<uint64_t>(static_cast<uint32_t>(api_.device_type_cpu())) << 32) |
          static_cast<uint32_t>(index);
    } else if (kind == "lay") {
      v = static_cast<uint32_t>(api_.layout_strided());
    } else if (kind == "mf") {
      v = static_cast<uint32_t>(value == "preserve"        ? api_.memory_format_preserve()
                                : value == "channels_last" ? api_.memory_format_channels_last()
                                                           : api_.memory_format_contiguous());
    } else if (kind == "s") {
      const std::string text = unescape(value);
      Handle s = nullptr;
      check(api_.new_string(text.data(), text.size(), &s), "torch_new_string_handle");
      v = reinterpret_cast<uintptr_t>(s);
    } else {
      throw CaseError("unknown argument token " + token);
    }
    return v;
  }

  // The tensor as text; takes ownership of `handle` when `owned`.
  std::string describe_tensor(Handle handle, bool owned) {
    std::string text;
    bool defined = false;
    if (handle == nullptr)
      return "T:null";  // a runtime must return a handle, even to an undefined tensor
    if (api_.is_defined(handle, &defined) != 0 || !defined) {
      text = "T:undef";
    } else {
      int64_t dim = 0, offset = 0;
      int64_t* sizes = nullptr;
      int64_t* strides = nullptr;
      int32_t code = 0;
      void* data = nullptr;
      check(api_.get_dim(handle, &dim), "get_dim");
      check(api_.get_sizes(handle, &sizes), "get_sizes");
      check(api_.get_strides(handle, &strides), "get_strides");
      check(api_.get_dtype(handle, &code), "get_dtype");
      check(api_.get_storage_offset(handle, &offset), "get_storage_offset");
      check(api_.get_data_ptr(handle, &data), "get_data_ptr");
      const std::string name = dtype_name(lib_, code);
      int64_t numel = 1;
      for (int64_t d = 0; d < dim; ++d) numel *= sizes[d];
      std::string alias = "-";
      if (numel > 0) {
        for (size_t k = 0; k < inputs_.size(); ++k) {
          const char* p = static_cast<const char*>(data);
          if (p >= inputs_[k].begin && p < inputs_[k].end) alias = std::to_string(k);
        }
      }
      text = "T:" + name + ":" + join_ints(sizes, dim) + ":" + join_ints(strides, dim) + ":" +
             std::to_string(offset) + ":" + alias + ":";
      const int elem = element_size(name);
      std::vector<int64_t> index(static_cast<size_t>(dim), 0);
      for (int64_t n = 0; n < numel && elem > 0; ++n) {
        int64_t position = 0;
        for (int64_t d = 0; d < dim; ++d) position += index[d] * strides[d];
        text +=
            (n ? "," : "") + read_element(name, static_cast<const char*>(data) + position * elem);
        for (int64_t d = dim - 1; d >= 0; --d) {
          if (++index[d] < sizes[d]) break;
          index[d] = 0;
        }
      }
    }
    if (owned) api_.delete_tensor(handle);
    return text;
  }

  // One returned value of schema type `type`; takes ownership of it.
  std::string describe_return(const std::string& type, StableIValue v) {
    if (!type.empty() && type.back() == '?') {
      if (v == 0) return "none";
      StableIValue* slot = reinterpret_cast<StableIValue*>(static_cast<uintptr_t>(v));
      const StableIValue inner = *slot;
      api_.delete_stable_ivalue(slot);
      return describe_return(type.substr(0, type.size() - 1), inner);
    }
    if (type.size() > 2 && type.compare(type.size() - 2, 2, "[]") == 0) {
      Handle list = reinterpret_cast<Handle>(static_cast<uintptr_t>(v));
      size_t n = 0;
      check(api_.list_size(list, &n), "torch_list_size");
      std::string text = "[";
      for (size_t k = 0; k < n; ++k) {
        StableIValue item = 0;
        check(api_.list_get_item(list, k, &item), "torch_list_get_item");
        text += (k ? "|" : "") + describe_return(type.substr(0, type.size() - 2), item);
      }
      api_.delete_list(list);
      return text + "]";
    }
    if (type == "Tensor")
      return describe_tensor(reinterpret_cast<Handle>(static_cast<uintptr_t>(v)), true);
    if (type == "int" || type == "SymInt") {
      int64_t x = 0;
      std::memcpy(&x, &v, sizeof(x));
      return "i:" + std::to_string(x);
    }
    if (type == "float") {
      double x = 0;
      std::memcpy(&x, &v, sizeof(x));
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.17g", x);
      return std::string("f:") + buffer;
    }
    if (type == "bool") return std::string("b:") + ((v & 0xffu) ? "1" : "0");
    if (type == "ScalarType") return "d:" + dtype_name(lib_, static_cast<int32_t>(v & 0xffffffffu));
    if (type == "str") {
      Handle s = reinterpret_cast<Handle>(static_cast<uintptr_t>(v));
      const char* data = nullptr;
      size_t length = 0;
      check(api_.string_c_str(s, &data), "torch_string_c_str");
      check(api_.string_length(s, &length), "torch_string_length");
      std::string text = "s:" + one_line(std::string(data, length));
      api_.delete_string(s);
      return text;
    }
    return "raw:" + std::to_string(v);
  }

  // The argument stack of the prepared case (benchmark mode), with room
  // for the returns.
  std::vector<StableIValue> build_stack() {
    tensor_cursor_ = 0;
    std::vector<StableIValue> stack;
    for (size_t i = 0; i < tokens_.size();) stack.push_back(parse_arg(tokens_, i));
    stack.resize(std::max(stack.size(), return_types_.size()) + 1, 0);
    return stack;
  }

  Error invoke(std::vector<StableIValue>& stack) {
    return api_.call_dispatcher_v != nullptr && !unversioned_
               ? api_.call_dispatcher_v(op_.c_str(), overload_.c_str(), stack.data(), abi_version_)
               : api_.call_dispatcher(op_.c_str(), overload_.c_str(), stack.data());
  }

  void release_returns(const std::vector<StableIValue>& stack) {
    for (size_t k = 0; k < return_types_.size(); ++k) release_return(return_types_[k], stack[k]);
  }

  // Deletes one returned value of schema type `type` (what describe_return
  // does, without reading it).
  void release_return(const std::string& type, StableIValue v) {
    if (!type.empty() && type.back() == '?') {
      if (v == 0) return;
      StableIValue* slot = reinterpret_cast<StableIValue*>(static_cast<uintptr_t>(v));
      const StableIValue inner = *slot;
      api_.delete_stable_ivalue(slot);
      release_return(type.substr(0, type.size() - 1), inner);
      return;
    }
    if (type.size() > 2 && type.compare(type.size() - 2, 2, "[]") == 0) {
      Handle list = reinterpret_cast<Handle>(static_cast<uintptr_t>(v));
      size_t n = 0;
      check(api_.list_size(list, &n), "torch_list_size");
      const std::string item_type = type.substr(0, type.size() - 2);
      for (size_t k = 0; k < n; ++k) {
        StableIValue item = 0;
        check(api_.list_get_item(list, k, &item), "torch_list_get_item");
        release_return(item_type, item);
      }
      api_.delete_list(list);
      return;
    }
    if (type == "Tensor" && v != 0)
      api_.delete_tensor(reinterpret_cast<Handle>(static_cast<uintptr_t>(v)));
    if (type == "str") api_.delete_string(reinterpret_cast<Handle>(static_cast<uintptr_t>(v)));
  }

  // unversioned: through aoti_torch_call_dispatcher rather than the
  // versioned torch_call_dispatcher.
  std::string call(const std::string& op, const std::string& overload,
                   const std::vector<std::string>& returns, const std::string& arg_text,
                   bool unversioned) {
    op_ = op;
    overload_ = overload;
    unversioned_ = unversioned;
    tokens_.clear();
    for (const std::string& t : split(arg_text, ' '))
      if (!t.empty()) tokens_.push_back(t);
    return_types_.clear();
    for (const std::string& r : returns)
      if (!r.empty() && r != "-") return_types_.push_back(r);
    std::vector<StableIValue> stack = build_stack();
    if (invoke(stack) != 0) return "ERR\t" + last_error();
    std::string text = "OK";
    for (size_t k = 0; k < return_types_.size(); ++k)
      text += "\t" + describe_return(return_types_[k], stack[k]);
    text += "\t|";
    for (const Input& input : inputs_) text += "\t" + describe_tensor(input.handle, false);
    return text;
  }

  void* lib_;
  const RuntimeApi& api_;
  uint64_t abi_version_;
  std::vector<Input> inputs_;
  // The case being run (or, in benchmark mode, prepared).
  std::string op_, overload_;
  bool unversioned_ = false;
  std::vector<std::string> tokens_;
  std::vector<std::string> return_types_;
  // Benchmark mode: tensor tokens take new handles to inputs_ in order.
  bool reuse_inputs_ = false;
  size_t tensor_cursor_ = 0;
  bool prepared_ = false;
};

// --bench: answers PREP / TIME / QUIT commands from stdin (see the top of
// this file).
int run_bench(Driver& driver) {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string answer;
    if (line.rfind("PREP\t", 0) == 0) {
      answer = driver.prepare(line.substr(5));
    } else if (line.rfind("TIME\t", 0) == 0) {
      answer = driver.sample(std::strtoull(line.c_str() + 5, nullptr, 10));
    } else if (line.rfind("PROBE\t", 0) == 0) {
      const size_t tab = line.find('\t', 6);
      answer = tab == std::string::npos
                   ? "ERR\tPROBE needs a name and a count"
                   : driver.probe(line.substr(6, tab - 6),
                                  std::strtoull(line.c_str() + tab + 1, nullptr, 10));
    } else if (line == "QUIT") {
      break;
    } else {
      answer = "ERR\tunknown command";
    }
    std::fwrite(answer.data(), 1, answer.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  driver.release_inputs();
  return 0;
}

// The path of a loaded object that is a stable-ABI runtime other than the
// one at `runtime_path` ("" when there is none). A plugin that drags a
// second runtime in (a DT_NEEDED on it) would run against two cores at once:
// the cell must not count as running on the runtime under test.
std::string second_runtime(const std::string& runtime_path) {
  struct Search {
    std::string runtime;
    std::string found;
  } search;
  char resolved[PATH_MAX];
  search.runtime = realpath(runtime_path.c_str(), resolved) != nullptr ? resolved : runtime_path;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
        const std::string path = info->dlpi_name;
        const std::string base = path.substr(path.rfind('/') + 1);
        if (base.rfind("libtorch_cpu.so", 0) != 0 && base.rfind("libstabletorch.so", 0) != 0)
          return 0;
        char real[PATH_MAX];
        const std::string canonical = realpath(path.c_str(), real) != nullptr ? real : path;
        if (canonical != s->runtime) s->found = path;
        return 0;
      },
      &search);
  return search.found;
}

int run_main(int argc, char** argv) {
  std::string runtime_path, cases_path;
  std::vector<std::string> plugins;
  size_t skip = 0;
  bool bench = false;
  uint64_t abi_version = (2ULL << 56) | (10ULL << 48);  // 2.10: lists and strings
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--runtime" && has_value)
      runtime_path = argv[++i];
    else if (arg == "--plugin" && has_value)
      plugins.push_back(argv[++i]);
    else if (arg == "--cases" && has_value)
      cases_path = argv[++i];
    else if (arg == "--skip" && has_value)
      skip = std::stoul(argv[++i]);
    else if (arg == "--abi-version" && has_value)
      abi_version = std::stoull(argv[++i], nullptr, 16);
    else if (arg == "--bench")
      bench = true;
    else {
      std::cerr << "usage: conformance_driver --runtime LIB [--plugin SO]... (--cases FILE [--skip "
                   "N] | --bench)"
                   " [--abi-version HEX]\n";
      return 2;
    }
  }
  if (runtime_path.empty() || (cases_path.empty() && !bench)) {
    std::cerr << "conformance_driver: --runtime and --cases (or --bench) are required\n";
    return 2;
  }
  // RTLD_GLOBAL: plugins resolve their stable-ABI imports against it.
  void* library = dlopen(runtime_path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) {
    std::printf("RUNTIMEFAIL\t%s\n", one_line(dlerror()).c_str());
    return 3;
  }
  RuntimeApi api;
  const std::string missing = resolve_runtime_api(library, api);
  if (!missing.empty()) {
    std::printf("RUNTIMEFAIL\tthe runtime does not export %s\n", missing.c_str());
    return 3;
  }
  for (const std::string& plugin : plugins) {
    if (dlopen(plugin.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
      std::printf("PLUGINFAIL\t%s\n", one_line(dlerror()).c_str());  // names the plugin
      return 4;
    }
  }
  const std::string other = second_runtime(runtime_path);
  if (!other.empty()) {
    std::printf("PLUGINFAIL\ta plugin loaded a second runtime into the process: %s\n",
                other.c_str());
    return 4;
  }
  if (bench) {
    uint32_t threads = 0;
    const bool known = api.get_num_threads != nullptr && api.get_num_threads(&threads) == 0;
    std::printf("LOADED\nTHREADS\t%lld\n", known ? static_cast<long long>(threads) : -1LL);
    std::fflush(stdout);
    Driver driver(library, api, abi_version);
    return run_bench(driver);
  }
  std::ifstream cases(cases_path);
  if (!cases) {
    std::cerr << "conformance_driver: cannot read " << cases_path << "\n";
    return 2;
  }
  std::printf("LOADED\n");
  std::fflush(stdout);
  Driver driver(library, api, abi_version);
  std::string line;
  size_t index = 0;
  while (std::getline(cases, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (index++ < skip) continue;
    const std::string result = driver.run(line);
    std::fwrite(result.data(), 1, result.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);  // a crash in a later case keeps this one's result
  }
  std::printf("DONE\n");
  return 0;
}

}  // namespace
}  // namespace conformance

int main(int argc, char** argv) {
  try {
    return conformance::run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "conformance_driver: %s\n", e.what());
    return 1;
  }
}
