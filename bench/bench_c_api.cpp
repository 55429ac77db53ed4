// C ABI call overhead: aoti_torch_call_dispatcher on a one-tensor no-op
// operator and on aten::add.Tensor with 1-element tensors, next to the
// core's own boxed and typed calls of the same operators (same run).
//
// The C ABI path is measured as an extension pays it: make an owning
// handle for the argument (what torch::stable's `from` does), call (the
// callee steals it and returns a new handle), delete the returned handle.
// Target: C ABI boxed < 2x core boxed.
//
// The no-op exists twice: with a typed kernel (which call_dispatcher calls
// unboxed, Note [Calling typed kernels unboxed]) and with a boxed-only
// kernel (which it must call through an IValue stack, as a plugin's kernel
// is called), each against the core's boxed call of the same kernel.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include <st/core/device.h>
#include <st/core/empty_tensor.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_13_0
// Exported by the library; declared by the headers only at level 2.13.
extern "C" AOTI_TORCH_EXPORT const char* torch_exception_get_what(void);
#endif

namespace {

using st::Tensor;

__attribute__((noinline)) Tensor noop(const Tensor& self) { return self; }
// The boxed no-op: its argument is its return, the stack stays as it is.
__attribute__((noinline)) void noopBoxed(const st::OperatorHandle&, st::DispatchKeySet,
                                         st::Stack* s) {
  benchmark::DoNotOptimize(s);
}

void registerNoop() {
  static st::Library def = [] {
    st::Library l(st::Library::DEF, "bench_c", std::nullopt, __FILE__, __LINE__);
    l.def("noop(Tensor self) -> Tensor");
    l.def("noop_boxed(Tensor self) -> Tensor");
    return l;
  }();
  static st::Library impl = [] {
    st::Library l(st::Library::IMPL, "bench_c", st::DispatchKey::CPU, __FILE__, __LINE__);
    l.impl("noop", ST_FN(noop));
    l.impl("noop_boxed", st::CppFunction::makeFromBoxedFunction(&noopBoxed));
    return l;
  }();
}

Tensor oneElement() {
  const int64_t one = 1;
  Tensor t = st::detail::empty_generic(st::IntArrayRef(&one, 1), st::ScalarType::Float,
                                       st::Device(st::DeviceType::CPU));
  t.data_ptr<float>()[0] = 1.0f;
  return t;
}

StableIValue bits(const void* p) {
  return static_cast<StableIValue>(reinterpret_cast<uintptr_t>(p));
}
AtenTensorHandle handle(StableIValue v) {
  return reinterpret_cast<AtenTensorHandle>(static_cast<uintptr_t>(v));
}

std::optional<st::OperatorHandle> findOp(const char* name, const char* overload) {
  return st::Dispatcher::singleton().findSchema(st::OperatorName(name, overload));
}

// One C ABI call as an extension makes it (see the top of the file); false
// on failure (the error is in torch_exception_get_what()). Shared by the
// timed benchmarks and the callgrind mode (--instructions).
template <bool boxed_kernel>
__attribute__((noinline)) bool noopCApiOnce(AtenTensorHandle t) {
  StableIValue stack[1];
  AtenTensorHandle arg = nullptr;
  aoti_torch_new_tensor_handle(t, &arg);
  stack[0] = bits(arg);
  const char* name = boxed_kernel ? "bench_c::noop_boxed" : "bench_c::noop";
  if (aoti_torch_call_dispatcher(name, "", stack) != AOTI_TORCH_SUCCESS) return false;
  aoti_torch_delete_tensor_object(handle(stack[0]));
  return true;
}

__attribute__((noinline)) bool addCApiOnce(AtenTensorHandle a, AtenTensorHandle b) {
  StableIValue stack[3];
  AtenTensorHandle ha = nullptr, hb = nullptr;
  StableScalarHandle alpha = nullptr;
  aoti_torch_new_tensor_handle(a, &ha);
  aoti_torch_new_tensor_handle(b, &hb);
  stabletorch_scalar_from_int(1, &alpha);
  stack[0] = bits(ha);
  stack[1] = bits(hb);
  stack[2] = bits(alpha);
  if (aoti_torch_call_dispatcher("aten::add", "Tensor", stack) != AOTI_TORCH_SUCCESS) return false;
  aoti_torch_delete_tensor_object(handle(stack[0]));
  return true;
}

// div.Tensor_mode(a, b, rounding_mode="floor") as a plugin built with the
// stable headers passes it: the str? is a heap StableIValue slot holding a
// string handle, both stolen by the call.
__attribute__((noinline)) bool divModeCApiOnce(AtenTensorHandle a, AtenTensorHandle b) {
  StableIValue stack[3];
  AtenTensorHandle ha = nullptr, hb = nullptr;
  StringHandle mode = nullptr;
  aoti_torch_new_tensor_handle(a, &ha);
  aoti_torch_new_tensor_handle(b, &hb);
  torch_new_string_handle("floor", 5, &mode);
  stack[0] = bits(ha);
  stack[1] = bits(hb);
  stack[2] = bits(new StableIValue(bits(mode)));
  if (aoti_torch_call_dispatcher("aten::div", "Tensor_mode", stack) != AOTI_TORCH_SUCCESS)
    return false;
  aoti_torch_delete_tensor_object(handle(stack[0]));
  return true;
}

// The core's boxed call of the no-op, as BM_Noop_CoreBoxed makes it.
__attribute__((noinline)) void noopCoreBoxedOnce(const st::OperatorHandle& op, const Tensor& t,
                                                 st::Stack& stack) {
  stack.emplace_back(t);
  op.callBoxed(&stack);
  benchmark::DoNotOptimize(stack.data());
  stack.clear();
}

// --- one-tensor no-op --------------------------------------------------------

void BM_Noop_CoreTyped(benchmark::State& state) {
  registerNoop();
  auto op = findOp("bench_c::noop", "")->typed<Tensor(const Tensor&)>();
  Tensor t = oneElement();
  for (auto _ : state) {
    Tensor r = op.call(t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Noop_CoreTyped);

// The core's boxed call of bench_c::noop or (boxed_kernel) bench_c::noop_boxed.
template <bool boxed_kernel>
void BM_Noop_Core(benchmark::State& state) {
  registerNoop();
  st::OperatorHandle op = *findOp(boxed_kernel ? "bench_c::noop_boxed" : "bench_c::noop", "");
  Tensor t = oneElement();
  st::Stack stack;
  stack.reserve(1);
  for (auto _ : state) noopCoreBoxedOnce(op, t, stack);
}
void BM_Noop_CoreBoxed(benchmark::State& state) { BM_Noop_Core<false>(state); }
BENCHMARK(BM_Noop_CoreBoxed);

template <bool boxed_kernel>
void BM_Noop_CApi(benchmark::State& state) {
  registerNoop();
  AtenTensorHandle t = nullptr;
  aoti_torch_create_tensor_from_blob(nullptr, 0, nullptr, nullptr, 0, aoti_torch_dtype_float32(),
                                     aoti_torch_device_type_cpu(), -1, &t);
  for (auto _ : state) {
    if (!noopCApiOnce<boxed_kernel>(t)) {
      state.SkipWithError(torch_exception_get_what());
      break;
    }
  }
  aoti_torch_delete_tensor_object(t);
}
void BM_Noop_CApiBoxed(benchmark::State& state) { BM_Noop_CApi<false>(state); }
BENCHMARK(BM_Noop_CApiBoxed);

// --- the same no-op with a boxed-only kernel --------------------------------------

void BM_NoopBoxedKernel_CoreBoxed(benchmark::State& state) { BM_Noop_Core<true>(state); }
BENCHMARK(BM_NoopBoxedKernel_CoreBoxed);

void BM_NoopBoxedKernel_CApiBoxed(benchmark::State& state) { BM_Noop_CApi<true>(state); }
BENCHMARK(BM_NoopBoxedKernel_CApiBoxed);

// --- aten::add.Tensor, 1-element tensors -----------------------------------------

void BM_Add_CoreTyped(benchmark::State& state) {
  auto h = findOp("aten::add", "Tensor");
  if (!h) {
    state.SkipWithError("aten::add.Tensor is not registered in this core yet");
    return;
  }
  auto op = h->typed<Tensor(const Tensor&, const Tensor&, const st::Scalar&)>();
  Tensor a = oneElement(), b = oneElement();
  const st::Scalar alpha(int64_t{1});
  for (auto _ : state) {
    Tensor r = op.call(a, b, alpha);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Add_CoreTyped);

void BM_Add_CoreBoxed(benchmark::State& state) {
  auto h = findOp("aten::add", "Tensor");
  if (!h) {
    state.SkipWithError("aten::add.Tensor is not registered in this core yet");
    return;
  }
  Tensor a = oneElement(), b = oneElement();
  st::Stack stack;
  stack.reserve(3);
  for (auto _ : state) {
    stack.emplace_back(a);
    stack.emplace_back(b);
    stack.emplace_back(st::Scalar(int64_t{1}));
    h->callBoxed(&stack);
    benchmark::DoNotOptimize(stack.data());
    stack.clear();
  }
}
BENCHMARK(BM_Add_CoreBoxed);

void BM_Add_CApiBoxed(benchmark::State& state) {
  if (!findOp("aten::add", "Tensor")) {
    state.SkipWithError("aten::add.Tensor is not registered in this core yet");
    return;
  }
  AtenTensorHandle a = nullptr, b = nullptr;
  const int64_t one = 1;
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &a);
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &b);
  for (auto _ : state) {
    if (!addCApiOnce(a, b)) {
      state.SkipWithError(torch_exception_get_what());
      break;
    }
  }
  aoti_torch_delete_tensor_object(a);
  aoti_torch_delete_tensor_object(b);
}
BENCHMARK(BM_Add_CApiBoxed);

// --- references: the handle round trip alone ------------------------------------

void BM_Ref_NewAndDeleteTensorHandle(benchmark::State& state) {
  AtenTensorHandle t = nullptr;
  aoti_torch_new_uninitialized_tensor(&t);
  for (auto _ : state) {
    AtenTensorHandle h = nullptr;
    aoti_torch_new_tensor_handle(t, &h);
    benchmark::DoNotOptimize(h);
    aoti_torch_delete_tensor_object(h);
  }
  aoti_torch_delete_tensor_object(t);
}
BENCHMARK(BM_Ref_NewAndDeleteTensorHandle);

// --- metadata reads and empty({1}) through the C ABI -------------------------------

// What a plugin's kernel reads of each argument: sizes, strides, data
// pointer (three exported calls per iteration).
__attribute__((always_inline)) inline void metadataReadsOnce(AtenTensorHandle t) {
  int64_t* sizes = nullptr;
  int64_t* strides = nullptr;
  void* data = nullptr;
  aoti_torch_get_sizes(t, &sizes);
  aoti_torch_get_strides(t, &strides);
  aoti_torch_get_data_ptr(t, &data);
  benchmark::DoNotOptimize(sizes);
  benchmark::DoNotOptimize(strides);
  benchmark::DoNotOptimize(data);
}

void BM_MetadataReads_CApi(benchmark::State& state) {
  AtenTensorHandle t = nullptr;
  const int64_t one = 1;
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &t);
  for (auto _ : state) metadataReadsOnce(t);
  aoti_torch_delete_tensor_object(t);
}
BENCHMARK(BM_MetadataReads_CApi)->Threads(1)->Threads(2);

// The same reads alternating between two handles made 5,000 handles apart,
// so from different chunks of the registry (a program holding thousands of
// tensors): the handle check must cost the same for either, and threads
// reading their own handles must not slow each other down.
void BM_MetadataReads_CApi_FarApartHandles(benchmark::State& state) {
  constexpr size_t kHandles = 5000;
  AtenTensorHandle t = nullptr;
  const int64_t one = 1;
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &t);
  std::vector<AtenTensorHandle> handles(kHandles, nullptr);
  for (AtenTensorHandle& h : handles) aoti_torch_new_tensor_handle(t, &h);
  for (auto _ : state) {
    metadataReadsOnce(handles.front());
    metadataReadsOnce(handles.back());
  }
  for (AtenTensorHandle h : handles) aoti_torch_delete_tensor_object(h);
  aoti_torch_delete_tensor_object(t);
}
BENCHMARK(BM_MetadataReads_CApi_FarApartHandles)->Threads(1)->Threads(2);

// A new 1-element float tensor and its deletion, as a plugin makes one.
__attribute__((always_inline)) inline bool emptyOneCApiOnce() {
  const int64_t one = 1;
  AtenTensorHandle t = nullptr;
  if (aoti_torch_empty_strided(1, &one, &one, aoti_torch_dtype_float32(),
                               aoti_torch_device_type_cpu(), 0, &t) != AOTI_TORCH_SUCCESS) {
    return false;
  }
  benchmark::DoNotOptimize(t);
  aoti_torch_delete_tensor_object(t);
  return true;
}

void BM_EmptyOne_CApi(benchmark::State& state) {
  for (auto _ : state) {
    if (!emptyOneCApiOnce()) {
      state.SkipWithError(torch_exception_get_what());
      return;
    }
  }
}
BENCHMARK(BM_EmptyOne_CApi);

// --- instructions per call (under callgrind) ------------------------------------
//
// valgrind --tool=callgrind --toggle-collect='*measure_*' bench_c_api --instructions
// then divide each measure_* function's inclusive count by the calls printed.

constexpr int kCallgrindCalls = 1000;

__attribute__((noinline)) void measure_noop_capi(AtenTensorHandle t) {
  for (int i = 0; i < kCallgrindCalls; ++i) noopCApiOnce<false>(t);
}
__attribute__((noinline)) void measure_noop_boxed_kernel_capi(AtenTensorHandle t) {
  for (int i = 0; i < kCallgrindCalls; ++i) noopCApiOnce<true>(t);
}

void coreBoxedCalls(const st::OperatorHandle& op, const Tensor& t) {
  st::Stack stack;
  stack.reserve(1);
  for (int i = 0; i < kCallgrindCalls; ++i) noopCoreBoxedOnce(op, t, stack);
}
__attribute__((noinline, no_icf)) void measure_noop_core_boxed(const st::OperatorHandle& op,
                                                               const Tensor& t) {
  coreBoxedCalls(op, t);
}
__attribute__((noinline, no_icf)) void measure_noop_boxed_kernel_core_boxed(
    const st::OperatorHandle& op, const Tensor& t) {
  coreBoxedCalls(op, t);
}
__attribute__((noinline)) void measure_metadata_reads_capi(AtenTensorHandle t) {
  for (int i = 0; i < kCallgrindCalls; ++i) metadataReadsOnce(t);
}
__attribute__((noinline)) void measure_empty_one_capi() {
  for (int i = 0; i < kCallgrindCalls; ++i) emptyOneCApiOnce();
}
__attribute__((noinline)) void measure_add_capi(AtenTensorHandle a, AtenTensorHandle b) {
  for (int i = 0; i < kCallgrindCalls; ++i) addCApiOnce(a, b);
}
__attribute__((noinline)) void measure_div_mode_1k_capi(AtenTensorHandle a, AtenTensorHandle b) {
  for (int i = 0; i < kCallgrindCalls; ++i) divModeCApiOnce(a, b);
}
__attribute__((noinline)) void measure_add_core_boxed(const st::OperatorHandle& op, const Tensor& a,
                                                      const Tensor& b) {
  st::Stack stack;
  stack.reserve(3);
  for (int i = 0; i < kCallgrindCalls; ++i) {
    stack.emplace_back(a);
    stack.emplace_back(b);
    stack.emplace_back(st::Scalar(int64_t{1}));
    op.callBoxed(&stack);
    benchmark::DoNotOptimize(stack.data());
    stack.clear();
  }
}

int instructionsMode() {
  registerNoop();
  st::OperatorHandle op = *findOp("bench_c::noop", "");
  const Tensor t = oneElement();
  AtenTensorHandle h = nullptr, a = nullptr, b = nullptr;
  const int64_t one = 1;
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &h);
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &a);
  aoti_torch_empty_strided(1, &one, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &b);
  AtenTensorHandle a1k = nullptr, b1k = nullptr;
  const int64_t k1 = 1024;
  aoti_torch_empty_strided(1, &k1, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &a1k);
  aoti_torch_empty_strided(1, &k1, nullptr, aoti_torch_dtype_float32(),
                           aoti_torch_device_type_cpu(), -1, &b1k);
  // Warm up (lookup caches, thread state) outside the measured functions.
  for (int i = 0; i < 10; ++i) {
    if (!noopCApiOnce<false>(h) || !noopCApiOnce<true>(h) || !addCApiOnce(a, b) ||
        !emptyOneCApiOnce() || !divModeCApiOnce(a1k, b1k)) {
      std::fprintf(stderr, "%s\n", torch_exception_get_what());
      return 1;
    }
  }
  measure_noop_core_boxed(op, t);
  measure_noop_capi(h);
  measure_noop_boxed_kernel_core_boxed(*findOp("bench_c::noop_boxed", ""), t);
  measure_noop_boxed_kernel_capi(h);
  measure_add_capi(a, b);
  measure_metadata_reads_capi(h);
  measure_empty_one_capi();
  measure_add_core_boxed(*findOp("aten::add", "Tensor"), oneElement(), oneElement());
  measure_div_mode_1k_capi(a1k, b1k);
  aoti_torch_delete_tensor_object(a1k);
  aoti_torch_delete_tensor_object(b1k);
  aoti_torch_delete_tensor_object(h);
  aoti_torch_delete_tensor_object(a);
  aoti_torch_delete_tensor_object(b);
  std::printf("calls per measure_* function: %d\n", kCallgrindCalls);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--instructions") == 0) return instructionsMode();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
