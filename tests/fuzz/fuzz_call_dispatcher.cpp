// libFuzzer target: aoti_torch_call_dispatcher with random operator names
// and random stacks for the real schemas of every registered operator.
//
// Each input picks an operator (one of the core's, or a random name) and,
// per schema argument, a value: a valid one of the argument's type (small
// tensors of random dtype and shape, small ints, lists, strings, scalars,
// None) or an invalid one (null, random bits, a deleted handle, a handle of
// another kind). The rule: the call returns AOTI_TORCH_SUCCESS or an error
// with a message, never crashes, and nothing leaks: after releasing the
// returns, the live-handle count is back where it was (checked every
// input) and LeakSanitizer finds nothing at exit.
//
// Pointer slots are forged too (Note [Checked optional slots] in
// c_api/src/stable_ivalue_slots.h): where an optional's slot pointer
// belongs, a bare live handle, a deleted one, an impossible address or a
// freed tracked slot; and the operator fuzzforge::forge, an extension
// kernel registered through the C ABI, writes the same into its `Tensor?`
// return slot. What the C ABI cannot tell from a slot by contract (an
// arbitrary aligned address) is never forged.
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <st/dispatch/dispatcher.h>
#include <st/dispatch/function_schema.h>

// Newer than the headers' level (2.13), exported by the library.
extern "C" {
const char* torch_exception_get_what_without_backtrace(void);
AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value);
AOTITorchError torch_delete_stable_ivalue(StableIValue* value);
}

namespace {

struct Op {
  std::string name;
  std::string overload;
  st::FunctionSchema schema;
};

std::vector<Op>* g_ops = nullptr;

StableIValue bits_of(const void* p) {
  StableIValue v = 0;
  std::memcpy(&v, &p, sizeof(p));
  return v;
}
template <typename T>
StableIValue bits_of_value(T x) {
  StableIValue v = 0;
  std::memcpy(&v, &x, sizeof(x));
  return v;
}
template <typename H>
H handle_of(StableIValue v) {
  H h;
  std::memcpy(&h, &v, sizeof(h));
  return h;
}

// Releases a value the core returned (or the caller still owns), by type.
void release(const st::SchemaType& t, StableIValue v) {
  switch (t.kind()) {
    case st::TypeKind::Tensor:
      if (v != 0) aoti_torch_delete_tensor_object(handle_of<AtenTensorHandle>(v));
      return;
    case st::TypeKind::Str:
      if (v != 0) torch_delete_string(handle_of<StringHandle>(v));
      return;
    case st::TypeKind::Scalar:
      if (v != 0) stabletorch_delete_scalar(handle_of<StableScalarHandle>(v));
      return;
    case st::TypeKind::Optional:
      if (v != 0) {
        StableIValue* slot = handle_of<StableIValue*>(v);
        release(t.elem(), *slot);
        delete slot;
      }
      return;
    case st::TypeKind::List: {
      StableListHandle l = handle_of<StableListHandle>(v);
      size_t n = 0;
      if (v == 0 || torch_list_size(l, &n) != AOTI_TORCH_SUCCESS) return;
      for (size_t i = 0; i < n; ++i) {
        StableIValue e = 0;
        if (torch_list_get_item(l, i, &e) == AOTI_TORCH_SUCCESS) release(t.elem(), e);
      }
      torch_delete_list(l);
      return;
    }
    default:
      return;
  }
}

const int32_t kDtypes[] = {6, 7, 4, 3, 1, 11, 5, 15, 0, 2};  // float, double, long, int, ...

AtenTensorHandle small_tensor(FuzzedDataProvider& in) {
  const int64_t ndim = in.ConsumeIntegralInRange<int64_t>(0, 3);
  int64_t sizes[3];
  int64_t strides[3];
  int64_t stride = 1;
  for (int64_t d = ndim - 1; d >= 0; --d) {
    sizes[d] = in.ConsumeIntegralInRange<int64_t>(0, 4);
    strides[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  const int32_t dtype = kDtypes[in.ConsumeIntegralInRange<size_t>(0, std::size(kDtypes) - 1)];
  AtenTensorHandle t = nullptr;
  if (aoti_torch_empty_strided(ndim, sizes, strides, dtype, aoti_torch_device_type_cpu(), 0, &t) !=
      AOTI_TORCH_SUCCESS) {
    return nullptr;
  }
  void* p = nullptr;
  int64_t nbytes = 0;
  int64_t numel = 0;
  aoti_torch_get_data_ptr(t, &p);
  aoti_torch_get_numel(t, &numel);
  nbytes = numel * static_cast<int64_t>(aoti_torch_dtype_element_size(dtype));
  if (p != nullptr && nbytes > 0) {
    const size_t item = aoti_torch_dtype_element_size(dtype);
    const bool integral = dtype >= 0 && dtype <= 4;  // uint8, int8, int16, int32, int64
    if (integral) {
      // Any bits: integer kernels must wrap on overflow as PyTorch defines
      // it (the kernels are built with -fwrapv, so UBSan checks that no
      // signed overflow is left outside them).
      std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(static_cast<size_t>(nbytes));
      bytes.resize(static_cast<size_t>(nbytes));
      std::memcpy(p, bytes.data(), bytes.size());
    } else {
      // Each element's lowest byte 0 or 1, the rest 0 (little-endian): a
      // valid bool (whose byte must be 0 or 1) and a small float, so that
      // float-to-integer conversions stay in range (out of range they are
      // undefined in C++, and in PyTorch).
      std::vector<uint8_t> bits = in.ConsumeBytes<uint8_t>(static_cast<size_t>(numel));
      bits.resize(static_cast<size_t>(numel));
      std::memset(p, 0, static_cast<size_t>(nbytes));
      for (size_t e = 0; e < bits.size(); ++e) static_cast<uint8_t*>(p)[e * item] = bits[e] & 0x1;
    }
  }
  return t;
}

// A deleted handle: its bits read as deleted even once its slot holds a
// new handle (Note [Handle generations]).
StableIValue deleted_handle() {
  StringHandle s = nullptr;
  torch_new_string_handle("d", 1, &s);
  torch_delete_string(s);
  return bits_of(s);
}

// A slot the runtime handed out and took back: in its quarantine.
StableIValue freed_tracked_slot() {
  StableIValue* p = nullptr;
  if (torch_new_stable_ivalue(&p) != AOTI_TORCH_SUCCESS) return 0;
  torch_delete_stable_ivalue(p);
  return bits_of(p);
}

// Something the runtime must refuse where an optional's slot pointer
// belongs (never an arbitrary aligned address: see the top).
StableIValue forged_slot(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 6)) {
    case 0: {  // a bare tensor handle
      AtenTensorHandle t = small_tensor(in);
      return bits_of(t);
    }
    case 1: {  // a bare scalar handle
      StableScalarHandle h = nullptr;
      stabletorch_scalar_from_int(1, &h);
      return bits_of(h);
    }
    case 2: {  // a bare list handle
      StableListHandle l = nullptr;
      torch_new_list_reserve_size(0, &l);
      return bits_of(l);
    }
    case 3:
      return deleted_handle();
    case 4:
      return in.ConsumeIntegral<uint64_t>() | 1;  // misaligned
    case 5:
      return in.ConsumeIntegralInRange<uint64_t>(1, 0xffff);  // below any mapping
    default:
      return freed_tracked_slot();
  }
}

// An invalid value for a handle-typed argument.
StableIValue bad_handle(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 3:
      return deleted_handle();
    case 0:
      return 0;
    case 1:
      return in.ConsumeIntegral<uint64_t>();
    default: {  // a live handle of another kind
      StringHandle s = nullptr;
      torch_new_string_handle("x", 1, &s);
      return bits_of(s);
    }
  }
}

StableIValue make_value(FuzzedDataProvider& in, const st::SchemaType& t, int depth) {
  const bool valid = in.ConsumeProbability<float>() < 0.85f;
  switch (t.kind()) {
    case st::TypeKind::Tensor:
      return valid ? bits_of(small_tensor(in)) : bad_handle(in);
    case st::TypeKind::Int:
    case st::TypeKind::SymInt:
      return bits_of_value<int64_t>(valid ? in.ConsumeIntegralInRange<int64_t>(-3, 6)
                                          : in.ConsumeIntegral<int64_t>());
    case st::TypeKind::Float: {
      const double choices[] = {0.0, 1.0, -1.5, 0.5, 1e300, -0.0, 3.0};
      return bits_of_value<double>(choices[in.ConsumeIntegralInRange<size_t>(0, 6)]);
    }
    case st::TypeKind::Bool:
      return valid ? bits_of_value<bool>(in.ConsumeBool()) : in.ConsumeIntegral<uint64_t>();
    case st::TypeKind::ScalarType:
    case st::TypeKind::Layout:
    case st::TypeKind::MemoryFormat:
      return bits_of_value<int32_t>(valid ? in.ConsumeIntegralInRange<int32_t>(0, 7)
                                          : in.ConsumeIntegral<int32_t>());
    case st::TypeKind::Device:
      return valid ? 0 : in.ConsumeIntegral<uint64_t>();
    case st::TypeKind::Str: {
      if (!valid) return bad_handle(in);
      const std::string s = in.ConsumeRandomLengthString(16);
      StringHandle h = nullptr;
      torch_new_string_handle(s.data(), s.size(), &h);
      return bits_of(h);
    }
    case st::TypeKind::Scalar: {
      if (!valid) return bad_handle(in);
      StableScalarHandle h = nullptr;
      if (in.ConsumeBool()) {
        stabletorch_scalar_from_int(in.ConsumeIntegralInRange<int64_t>(-3, 6), &h);
      } else {
        stabletorch_scalar_from_double(0.5, &h);
      }
      return bits_of(h);
    }
    case st::TypeKind::Optional: {
      if (!valid) return forged_slot(in);
      if (in.ConsumeBool() || depth > 2) return 0;
      return bits_of(new StableIValue(make_value(in, t.elem(), depth + 1)));
    }
    case st::TypeKind::List: {
      if (!valid || depth > 2) return bad_handle(in);
      const size_t n = in.ConsumeIntegralInRange<size_t>(0, 4);
      StableListHandle l = nullptr;
      torch_new_list_reserve_size(n, &l);
      for (size_t i = 0; i < n; ++i) torch_list_push_back(l, make_value(in, t.elem(), depth + 1));
      return bits_of(l);
    }
    default:
      return in.ConsumeIntegral<uint64_t>();
  }
}

// fuzzforge::forge(Tensor t, int how) -> Tensor?: writes into its return
// slot, by `how`, None, a valid slot, or one of the forged values the
// runtime must refuse (forged_slot's kinds, and a valid slot holding the
// wrong kind of handle). Each is an error or a success, never a crash, and
// whatever the kernel left is released.
void forge_kernel(StableIValue* stack, uint64_t, uint64_t) {
  AtenTensorHandle t = handle_of<AtenTensorHandle>(stack[0]);
  const uint64_t how = stack[1];
  StableIValue out = 0;
  switch (how % 9) {
    case 0:
      break;  // None
    case 1:
      out = bits_of(new StableIValue(bits_of(t)));
      t = nullptr;
      break;
    case 2:
      out = bits_of(t);
      t = nullptr;
      break;  // the tensor handle, bare
    case 3: {
      StringHandle s = nullptr;
      torch_new_string_handle("f", 1, &s);
      out = bits_of(s);
      break;
    }
    case 4:
      out = deleted_handle();
      break;
    case 5:
      out = (how << 8) | 5;
      break;  // misaligned
    case 6:
      out = freed_tracked_slot();
      break;
    case 7:
      out = how & 0xfff8;
      break;    // below any mapping (or 0: None)
    default: {  // a valid slot holding a string handle where a tensor belongs
      StringHandle s = nullptr;
      torch_new_string_handle("f", 1, &s);
      out = bits_of(new StableIValue(bits_of(s)));
      break;
    }
  }
  if (t != nullptr) aoti_torch_delete_tensor_object(t);
  stack[0] = out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  TorchLibraryHandle forge = nullptr;
  if (aoti_torch_library_init_def("fuzzforge", __FILE__, __LINE__, &forge) != AOTI_TORCH_SUCCESS ||
      aoti_torch_library_def(forge, "forge(Tensor t, int how) -> Tensor?") != AOTI_TORCH_SUCCESS ||
      aoti_torch_library_impl(forge, "forge", &forge_kernel) != AOTI_TORCH_SUCCESS) {
    std::fprintf(stderr, "fuzz_call_dispatcher: could not register fuzzforge::forge: %s\n",
                 torch_exception_get_what_without_backtrace());
    std::abort();
  }
  g_ops = new std::vector<Op>();
  auto& d = st::Dispatcher::singleton();
  for (const st::OperatorName& n : d.getAllOpNames()) {
    auto op = d.findSchema(n);
    if (!op || !op->hasSchema()) continue;
    g_ops->push_back(Op{n.name, n.overload_name, op->schema()});
  }
  std::sort(g_ops->begin(), g_ops->end(), [](const Op& a, const Op& b) {
    return a.name != b.name ? a.name < b.name : a.overload < b.overload;
  });
  std::fprintf(stderr, "fuzz_call_dispatcher: %zu operators with schemas\n", g_ops->size());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  int64_t handles_before = 0;
  stabletorch_live_handle_count(&handles_before);

  StableIValue stack[64] = {};
  const Op* op = nullptr;
  std::string name;
  std::string overload;
  if (g_ops->empty() || in.ConsumeProbability<float>() < 0.05f) {
    name = in.ConsumeRandomLengthString(40);
    overload = in.ConsumeRandomLengthString(12);
  } else {
    op = &(*g_ops)[in.ConsumeIntegralInRange<size_t>(0, g_ops->size() - 1)];
    name = op->name;
    overload = op->overload;
  }
  const std::vector<st::Argument>* args = op ? &op->schema.arguments() : nullptr;
  const size_t nargs = args ? std::min<size_t>(args->size(), 64) : 0;
  for (size_t i = 0; i < nargs; ++i) stack[i] = make_value(in, (*args)[i].type, 0);

  const AOTITorchError err = aoti_torch_call_dispatcher(name.c_str(), overload.c_str(), stack);
  if (err == AOTI_TORCH_SUCCESS) {
    if (op == nullptr) {
      std::fprintf(stderr, "a random name resolved: '%s'\n", name.c_str());
    } else {
      const auto& rets = op->schema.returns();
      for (size_t i = 0; i < rets.size() && i < 64; ++i) release(rets[i].type, stack[i]);
    }
  } else {
    const char* what = torch_exception_get_what_without_backtrace();
    if (what == nullptr || what[0] == '\0') {
      std::fprintf(stderr, "%s.%s failed without a message\n", name.c_str(), overload.c_str());
      std::abort();
    }
  }
  // Handles of the kinds bad_handle() forged as "another kind" that the
  // callee did not take are released by the callee too (it steals every
  // argument); an unknown operator takes nothing, so its (empty) stack
  // needs no release.
  int64_t handles_after = 0;
  stabletorch_live_handle_count(&handles_after);
  if (handles_after != handles_before) {
    std::fprintf(stderr, "%s.%s (%s): live handles %lld -> %lld\n", name.c_str(), overload.c_str(),
                 err == AOTI_TORCH_SUCCESS ? "succeeded" : "failed",
                 static_cast<long long>(handles_before), static_cast<long long>(handles_after));
    std::abort();
  }
  return 0;
}
