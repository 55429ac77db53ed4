// mm of 1024x1024 float matrices in GFLOP/s next to oneDNN's dnnl_sgemm
// called directly on the same data in the same run (1 and 2 threads); a
// double mm (the core's packed GEMM) next to OpenBLAS's cblas_dgemm called
// directly; int64 products on their three paths (values whose sums a float
// or a double holds exactly, and larger ones: the blocked loop).
#include <benchmark/benchmark.h>

#include <cblas-openblas.h>
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <st/core/parallel.h>
#include <st/core/tensor.h>
#include <st/generated/functions.h>

namespace {

using st::Tensor;

struct Threads {
  int saved = st::get_num_threads();
  explicit Threads(int n) { st::set_num_threads(n); }
  ~Threads() { st::set_num_threads(saved); }
};

void set_flops(benchmark::State& state, int64_t n) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      static_cast<double>(2 * n * n * n) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

// dnnl_sgemm of two n x n float matrices, called directly on OpenMP
// threads (the reference for st::mm_out).
void time_dnnl_sgemm(benchmark::State& state, int64_t n, int threads) {
  omp_set_num_threads(threads);
  Tensor a = st::rand({n, n}), b = st::rand({n, n}), c = st::empty({n, n});
  const float* pa = static_cast<const float*>(a.const_data_ptr());
  const float* pb = static_cast<const float*>(b.const_data_ptr());
  float* pc = static_cast<float*>(c.data_ptr());
  for (auto _ : state) {
    dnnl_sgemm('N', 'N', n, n, n, 1.0f, pa, n, pb, n, 0.0f, pc, n);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}

// st::mm_out of two n x n float matrices on `threads` threads.
void time_mm_out(benchmark::State& state, int64_t n, int threads) {
  Threads t(threads);
  Tensor a = st::rand({n, n}), b = st::rand({n, n}), c = st::empty({n, n});
  for (auto _ : state) {
    st::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}

void BM_DnnlSgemmDirect(benchmark::State& state) {
  time_dnnl_sgemm(state, 1024, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_DnnlSgemmDirect)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Mm1024Float(benchmark::State& state) {
  time_mm_out(state, 1024, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_Mm1024Float)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// Small products (n x n x n, one thread), where a call's fixed costs
// dominate: mm.out next to dnnl_sgemm on the same data.
void BM_DnnlSgemmDirectSmall(benchmark::State& state) {
  Threads t(1);
  time_dnnl_sgemm(state, state.range(0), 1);
}
BENCHMARK(BM_DnnlSgemmDirectSmall)->Arg(8)->Arg(16)->Arg(32)->Arg(48)->Arg(64)->Arg(96);

void BM_MmOutFloatSmall(benchmark::State& state) { time_mm_out(state, state.range(0), 1); }
BENCHMARK(BM_MmOutFloatSmall)->Arg(8)->Arg(16)->Arg(32)->Arg(48)->Arg(64)->Arg(96);

// The same product with a transposed operand: no copy, oneDNN's 'T' path.
void BM_Mm1024FloatTransposedB(benchmark::State& state) {
  const int64_t n = 1024;
  Threads t(1);
  Tensor a = st::rand({n, n}), b = st::t(st::rand({n, n})), c = st::empty({n, n});
  for (auto _ : state) {
    st::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}
BENCHMARK(BM_Mm1024FloatTransposedB)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_CblasDgemmDirect512(benchmark::State& state) {
  const int64_t n = 512;
  openblas_set_num_threads(1);
  Tensor a = st::rand({n, n}, st::ScalarType::Double), b = st::rand({n, n}, st::ScalarType::Double);
  Tensor c = st::empty({n, n}, st::ScalarType::Double);
  const double* pa = static_cast<const double*>(a.const_data_ptr());
  const double* pb = static_cast<const double*>(b.const_data_ptr());
  double* pc = static_cast<double*>(c.data_ptr());
  for (auto _ : state) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, pa, n, pb, n, 0.0, pc, n);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}
BENCHMARK(BM_CblasDgemmDirect512)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Mm512Double(benchmark::State& state) {
  const int64_t n = 512;
  Threads t(1);
  Tensor a = st::rand({n, n}, st::ScalarType::Double), b = st::rand({n, n}, st::ScalarType::Double);
  Tensor c = st::empty({n, n}, st::ScalarType::Double);
  for (auto _ : state) {
    st::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}
BENCHMARK(BM_Mm512Double)->UseRealTime()->Unit(benchmark::kMillisecond);

// 1024 x 1024 int64 products with values in [-range, range]: 100 keeps
// every sum within 2^24 (the float GEMM), 10^6 within 2^53 (the double
// GEMM), 10^9 past it (the blocked loop). GFLOP/s counts a multiply-add
// as two operations, as for the floating rows.
void BM_Mm1024Int64(benchmark::State& state) {
  const int64_t n = 1024, range = state.range(0);
  Threads t(1);
  Tensor a = st::randint(-range, range + 1, {n, n}, st::ScalarType::Long);
  Tensor b = st::randint(-range, range + 1, {n, n}, st::ScalarType::Long);
  Tensor c = st::empty({n, n}, st::ScalarType::Long);
  for (auto _ : state) {
    st::mm_out(c, a, b);
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}
BENCHMARK(BM_Mm1024Int64)
    ->Arg(100)
    ->Arg(1000000)
    ->Arg(1000000000)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
