// Operator speed, each beside a reference measured in the same run:
//   - 1-element add / add_ (op latency) next to a direct function call;
//   - add.out and copy_ over 16M floats, and sum over 16M floats, in GB/s
//     (bytes read + written) next to memcpy of 16M floats (1 and 2
//     threads, the memcpy split over the same thread pool);
//   - sum, and the other full reductions (mean, amax, amin, max, prod,
//     var, norm), next to a plain vectorized float reduction loop;
//   - scatter_ along the last dim of 1M floats (from a src, of a value),
//     next to a plain loop making the same stores;
//   - pow.Tensor_Tensor_out of 1M floats (positive bases, or bases of
//     both signs), next to the C library's powf over the same arrays;
//   - 1M floats as rows of 256, 1024 or 4096 against a broadcast row
//     (lt_ in place, mul.out), next to a plain loop over the same rows.
//
// Instructions per call for the 1-element cases: tools/callgrind_ops.sh
// runs `bench_ops --instructions` under callgrind; each measure_* function
// makes kCallgrindCalls calls.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include <st/core/parallel.h>
#include <st/core/tensor.h>
#include <st/generated/functions.h>

namespace {

using st::Tensor;

constexpr int64_t kBig = int64_t{16} << 20;  // 16M floats = 64 MiB
constexpr int kCallgrindCalls = 1000;

// ---- references -----------------------------------------------------------

__attribute__((noinline)) float add_floats(const float* a, const float* b, float* out) {
  *out = *a + *b;
  return *out;
}
// Through a pointer the optimiser cannot see through: a real call.
float (*volatile g_add)(const float*, const float*, float*) = &add_floats;

void BM_DirectCall(benchmark::State& state) {
  float a = 1, b = 2, out = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g_add(&a, &b, &out));
  }
}
BENCHMARK(BM_DirectCall);

struct Threads {
  int saved = st::get_num_threads();
  explicit Threads(int n) { st::set_num_threads(n); }
  ~Threads() { st::set_num_threads(saved); }
};

Tensor big_floats(float v) { return st::full({kBig}, v); }

void memcpy_parallel(void* dst, const void* src, size_t bytes, int threads) {
  const int64_t n = threads;
  st::parallel_for(0, n, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const size_t lo = bytes * static_cast<size_t>(i) / static_cast<size_t>(n);
      const size_t hi = bytes * static_cast<size_t>(i + 1) / static_cast<size_t>(n);
      std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
    }
  });
}

// memcpy of 16M floats: bytes read + written (2 x 64 MiB per iteration).
void BM_Memcpy16M(benchmark::State& state) {
  Threads t(static_cast<int>(state.range(0)));
  Tensor src = big_floats(1), dst = big_floats(0);
  for (auto _ : state) {
    memcpy_parallel(dst.data_ptr(), src.const_data_ptr(), kBig * sizeof(float),
                    static_cast<int>(state.range(0)));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBig * 2 * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_Memcpy16M)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- 1-element latency ------------------------------------------------------

void BM_Add1(benchmark::State& state) {
  Tensor a = st::full({1}, 1.0f), b = st::full({1}, 2.0f);
  for (auto _ : state) {
    Tensor r = st::add(a, b);
    benchmark::DoNotOptimize(r.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_Add1);

void BM_AddInplace1(benchmark::State& state) {
  Tensor a = st::full({1}, 1.0f), b = st::full({1}, 0.0f);
  for (auto _ : state) {
    st::add_(a, b);
    benchmark::DoNotOptimize(a.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_AddInplace1);

void BM_AddOut1(benchmark::State& state) {
  Tensor a = st::full({1}, 1.0f), b = st::full({1}, 2.0f), out = st::full({1}, 0.0f);
  for (auto _ : state) {
    st::add_out(out, a, b);
    benchmark::DoNotOptimize(out.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_AddOut1);

// The general elementwise engine (TensorIterator) on one element: div has
// no fast path, so this is what every other pointwise op costs.
void BM_Div1Engine(benchmark::State& state) {
  Tensor a = st::full({1}, 1.0f), b = st::full({1}, 2.0f);
  for (auto _ : state) {
    Tensor r = st::div(a, b);
    benchmark::DoNotOptimize(r.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_Div1Engine);

// ---- bandwidth ----------------------------------------------------------------

// add.out: reads 2 x 64 MiB, writes 64 MiB per iteration.
void BM_AddOut16M(benchmark::State& state) {
  Threads t(static_cast<int>(state.range(0)));
  Tensor a = big_floats(1), b = big_floats(2), out = big_floats(0);
  for (auto _ : state) {
    st::add_out(out, a, b);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBig * 3 * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_AddOut16M)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// copy_: reads and writes 64 MiB per iteration (the same bytes as memcpy).
void BM_Copy16M(benchmark::State& state) {
  Threads t(static_cast<int>(state.range(0)));
  Tensor src = big_floats(1), dst = big_floats(0);
  for (auto _ : state) {
    st::copy_(dst, src);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBig * 2 * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_Copy16M)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// sum: reads 64 MiB per iteration.
void BM_Sum16M(benchmark::State& state) {
  Threads t(static_cast<int>(state.range(0)));
  Tensor x = big_floats(0.5f);
  for (auto _ : state) {
    Tensor s = st::sum(x);
    benchmark::DoNotOptimize(s.unsafeGetTensorImpl());
  }
  state.SetBytesProcessed(state.iterations() * kBig * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_Sum16M)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// Reference for sum: a plain vectorized float reduction (64-byte vectors,
// four accumulators; what a hand-written loop reaches), split over the
// same thread pool in two halves for 2 threads.
typedef float vf __attribute__((vector_size(64)));
__attribute__((noinline)) float plain_sum(const float* x, int64_t n) {
  vf a0{}, a1{}, a2{}, a3{};
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    vf v0, v1, v2, v3;
    std::memcpy(&v0, x + i, 64);
    std::memcpy(&v1, x + i + 16, 64);
    std::memcpy(&v2, x + i + 32, 64);
    std::memcpy(&v3, x + i + 48, 64);
    a0 += v0;
    a1 += v1;
    a2 += v2;
    a3 += v3;
  }
  vf a = (a0 + a1) + (a2 + a3);
  float s = 0;
  for (int j = 0; j < 16; ++j) s += a[j];
  for (; i < n; ++i) s += x[i];
  return s;
}

void BM_PlainSumLoop16M(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  Threads t(threads);
  Tensor x = big_floats(0.5f);
  const float* p = static_cast<const float*>(x.const_data_ptr());
  for (auto _ : state) {
    std::vector<float> part(static_cast<size_t>(threads));
    st::parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t lo = kBig * i / threads, hi = kBig * (i + 1) / threads;
        part[static_cast<size_t>(i)] = plain_sum(p + lo, hi - lo);
      }
    });
    float s = 0;
    for (float v : part) s += v;
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * kBig * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_PlainSumLoop16M)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The other full reductions of 16M floats on one thread, to read next to
// the plain loop above (the same 64 MiB read per iteration).
void BM_FullReduction16M(benchmark::State& state) {
  Threads t(1);
  Tensor x = big_floats(0.5f);
  const int64_t which = state.range(0);
  const char* names[] = {"mean", "amax", "amin", "max", "prod", "var", "norm"};
  state.SetLabel(names[which]);
  for (auto _ : state) {
    Tensor s;
    switch (which) {
      case 0:
        s = st::mean(x);
        break;
      case 1:
        s = st::amax(x);
        break;
      case 2:
        s = st::amin(x);
        break;
      case 3:
        s = st::max(x);
        break;
      case 4:
        s = st::prod(x);
        break;
      case 5:
        s = st::var(x);
        break;
      default:
        s = st::linalg_vector_norm(x);
        break;
    }
    benchmark::DoNotOptimize(s.unsafeGetTensorImpl());
  }
  state.SetBytesProcessed(state.iterations() * kBig * static_cast<int64_t>(sizeof(float)));
}
BENCHMARK(BM_FullReduction16M)->DenseRange(0, 6)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- scatter along the last dim, next to a plain loop -----------------------------

constexpr int64_t kScatterRows = 1024, kScatterCols = 1024;

// A [1024, 1024] int64 index of pseudo-random columns (a fixed LCG).
Tensor scatter_index() {
  Tensor idx = st::empty({kScatterRows, kScatterCols}, st::ScalarType::Long);
  int64_t* p = idx.data_ptr<int64_t>();
  uint64_t x = 12345;
  for (int64_t i = 0; i < kScatterRows * kScatterCols; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(kScatterCols));
  }
  return idx;
}

// scatter_ of 1M floats along the last dim of a contiguous tensor: from a
// src (arg 0) or of a value (arg 1).
void BM_ScatterAlongLastDim1M(benchmark::State& state) {
  Threads t(1);
  const Tensor idx = scatter_index();
  const Tensor self = st::zeros({kScatterRows, kScatterCols});
  const Tensor src = st::ones({kScatterRows, kScatterCols});
  const bool value = state.range(0) == 1;
  state.SetLabel(value ? "value" : "src");
  for (auto _ : state) {
    if (value) {
      st::scatter_(self, 1, idx, 2.0);
    } else {
      st::scatter_(self, 1, idx, src);
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ScatterAlongLastDim1M)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The reference: the same stores by a plain loop with the same bounds
// check, from a src (arg 0) or of a value (arg 1).
void BM_PlainScatterLoop1M(benchmark::State& state) {
  const Tensor idx = scatter_index();
  const Tensor self = st::zeros({kScatterRows, kScatterCols});
  const Tensor src = st::ones({kScatterRows, kScatterCols});
  const bool value = state.range(0) == 1;
  state.SetLabel(value ? "value" : "src");
  float* out = self.data_ptr<float>();
  const float* in = src.data_ptr<float>();
  const int64_t* ip = idx.data_ptr<int64_t>();
  for (auto _ : state) {
    for (int64_t r = 0; r < kScatterRows; ++r) {
      float* row = out + r * kScatterCols;
      for (int64_t j = 0; j < kScatterCols; ++j) {
        const int64_t w = ip[r * kScatterCols + j];
        if (static_cast<uint64_t>(w) >= static_cast<uint64_t>(kScatterCols)) {
          state.SkipWithError("index out of range");
          return;
        }
        row[w] = value ? 2.0f : in[r * kScatterCols + j];
      }
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PlainScatterLoop1M)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// ---- pow of 1M floats, next to the C library's powf --------------------------------

constexpr int64_t kPowN = int64_t{1} << 20;

// Bases in (0, 8] (arg 0) or in [-8, 8] (arg 1), exponents in [-4, 4], from
// a fixed LCG: with negative bases, the integral exponents keep their sign
// and the rest give NaN, so every special case of the vector pow is taken.
std::pair<Tensor, Tensor> pow_operands(bool both_signs) {
  Tensor x = st::empty({kPowN});
  Tensor y = st::empty({kPowN});
  float* xp = x.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  uint64_t s = 777;
  auto next = [&s] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>(s >> 33);
  };
  for (int64_t i = 0; i < kPowN; ++i) {
    xp[i] = both_signs ? static_cast<float>(next() % 1601 - 800) / 100.0f
                       : static_cast<float>(next() % 800 + 1) / 100.0f;
    yp[i] = static_cast<float>(next() % 801 - 400) / 100.0f;
  }
  return {x, y};
}

void BM_Pow1M(benchmark::State& state) {
  Threads t(1);
  const bool both = state.range(0) == 1;
  state.SetLabel(both ? "bases of both signs" : "positive bases");
  const auto [x, y] = pow_operands(both);
  const Tensor out = st::empty({kPowN});
  for (auto _ : state) {
    st::pow_out(out, x, y);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Pow1M)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The reference: powf per element over the same operands.
void BM_PowfLoop1M(benchmark::State& state) {
  const bool both = state.range(0) == 1;
  state.SetLabel(both ? "bases of both signs" : "positive bases");
  const auto [x, y] = pow_operands(both);
  const Tensor out = st::empty({kPowN});
  const float* xp = x.data_ptr<float>();
  const float* yp = y.data_ptr<float>();
  float* op = out.data_ptr<float>();
  for (auto _ : state) {
    for (int64_t i = 0; i < kPowN; ++i) op[i] = std::pow(xp[i], yp[i]);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PowfLoop1M)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// ---- a float tensor against a broadcast row, next to a plain loop ----------------

constexpr int64_t kRowElements = int64_t{1} << 20;

// A [2^20 / length, length] tensor of values around the row's, and the
// [length] row.
std::pair<Tensor, Tensor> row_operands(int64_t length) {
  Tensor a = st::empty({kRowElements / length, length});
  Tensor row = st::empty({length});
  float* ap = a.data_ptr<float>();
  float* rp = row.data_ptr<float>();
  for (int64_t j = 0; j < length; ++j) rp[j] = static_cast<float>(j % 7);
  for (int64_t i = 0; i < kRowElements; ++i) ap[i] = static_cast<float>(i % 13) * 0.5f;
  return {a, row};
}

// lt_ in place (arg 0 = 0; the result, 0 or 1, is compared again on the
// next call, so every call does the same work) or mul.out (arg 0 = 1), over
// rows of arg 1 floats.
void BM_BroadcastRow1M(benchmark::State& state) {
  Threads t(1);
  const bool out_form = state.range(0) == 1;
  state.SetLabel(out_form ? "mul.out" : "lt_");
  const auto [a, row] = row_operands(state.range(1));
  const Tensor out = st::empty(a.sizes());
  for (auto _ : state) {
    if (out_form) {
      st::mul_out(out, a, row);
    } else {
      st::lt_(a, row);
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BroadcastRow1M)
    ->ArgsProduct({{0, 1}, {256, 1024, 4096}})
    ->Unit(benchmark::kMicrosecond);

// The reference: each row by a loop the compiler vectorizes, for AVX2 where
// the CPU has it (as PyTorch's CPU kernels are built), the rows' pointers
// advanced as a 2-d loop does.
__attribute__((target_clones("avx2", "default"))) void plain_rows(float* out, const float* a,
                                                                  const float* row, int64_t length,
                                                                  bool mul) {
  for (int64_t r = 0; r < kRowElements / length; ++r) {
    float* o = out + r * length;
    const float* x = a + r * length;
    if (mul) {
      for (int64_t j = 0; j < length; ++j) o[j] = x[j] * row[j];
    } else {
      for (int64_t j = 0; j < length; ++j) o[j] = x[j] < row[j] ? 1.0f : 0.0f;
    }
  }
}

void BM_PlainBroadcastRowLoop1M(benchmark::State& state) {
  const bool out_form = state.range(0) == 1;
  state.SetLabel(out_form ? "mul.out" : "lt_");
  const int64_t length = state.range(1);
  const auto [a, row] = row_operands(length);
  const Tensor out = st::empty(a.sizes());
  float* ap = a.data_ptr<float>();
  for (auto _ : state) {
    plain_rows(out_form ? out.data_ptr<float>() : ap, ap, row.data_ptr<float>(), length, out_form);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PlainBroadcastRowLoop1M)
    ->ArgsProduct({{0, 1}, {256, 1024, 4096}})
    ->Unit(benchmark::kMicrosecond);

// ---- instructions per call (under callgrind) -------------------------------------

__attribute__((noinline)) void measure_direct_call() {
  float a = 1, b = 2, out = 0;
  for (int i = 0; i < kCallgrindCalls; ++i) benchmark::DoNotOptimize(g_add(&a, &b, &out));
}
__attribute__((noinline)) void measure_add1(const Tensor& a, const Tensor& b) {
  for (int i = 0; i < kCallgrindCalls; ++i) {
    Tensor r = st::add(a, b);
    benchmark::DoNotOptimize(r.unsafeGetTensorImpl());
  }
}
__attribute__((noinline)) void measure_add_inplace1(const Tensor& a, const Tensor& b) {
  for (int i = 0; i < kCallgrindCalls; ++i) st::add_(a, b);
}
__attribute__((noinline)) void measure_div1_engine(const Tensor& a, const Tensor& b) {
  for (int i = 0; i < kCallgrindCalls; ++i) {
    Tensor r = st::div(a, b);
    benchmark::DoNotOptimize(r.unsafeGetTensorImpl());
  }
}
__attribute__((noinline)) void measure_add_out1(const Tensor& a, const Tensor& b,
                                                const Tensor& out) {
  for (int i = 0; i < kCallgrindCalls; ++i) st::add_out(out, a, b);
}

// The general engine with a Bool kernel output written into a float
// tensor (the block cast), and the nullary kernels.
__attribute__((noinline)) void measure_eq_inplace1(const Tensor& a, const Tensor& b) {
  for (int i = 0; i < kCallgrindCalls; ++i) st::eq_(a, b);
}
__attribute__((noinline)) void measure_fill1(const Tensor& a) {
  for (int i = 0; i < kCallgrindCalls; ++i) st::fill_(a, 3.0);
}
__attribute__((noinline)) void measure_zero1(const Tensor& a) {
  for (int i = 0; i < kCallgrindCalls; ++i) st::zero_(a);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--instructions") == 0) {
    Tensor a = st::full({1}, 1.0f), b = st::full({1}, 2.0f), out = st::full({1}, 0.0f);
    // Warm up (first-use lookups, thread pool) outside the measured functions.
    for (int i = 0; i < 10; ++i) {
      (void)st::add(a, b);
      st::add_(a, st::full({1}, 0.0f));
      st::add_out(out, a, b);
      (void)st::div(a, b);
      st::eq_(out, b);
      st::fill_(out, 3.0);
      st::zero_(out);
    }
    measure_direct_call();
    measure_div1_engine(a, b);
    measure_add1(a, b);
    measure_add_inplace1(a, st::full({1}, 0.0f));
    measure_add_out1(a, b, out);
    measure_eq_inplace1(out, b);
    measure_fill1(out);
    measure_zero1(out);
    std::printf("calls per measure_* function: %d\n", kCallgrindCalls);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
