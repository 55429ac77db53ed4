// See dnnl_eltwise.h.
#include "dnnl_eltwise.h"

#include <utility>

#include <oneapi/dnnl/dnnl.h>

#include <st/core/error.h>

#include "dnnl_support.h"

namespace st::native {

namespace {

// Owns one oneDNN handle; Destroy runs once, on scope exit, error paths
// included.
template <typename H, dnnl_status_t (*Destroy)(H)>
class DnnlHandle {
 public:
  DnnlHandle() = default;
  DnnlHandle(const DnnlHandle&) = delete;
  DnnlHandle& operator=(const DnnlHandle&) = delete;
  DnnlHandle(DnnlHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  DnnlHandle& operator=(DnnlHandle&&) = delete;
  ~DnnlHandle() {
    if (h_ != nullptr) Destroy(h_);
  }
  H get() const { return h_; }
  H* out() { return &h_; }  // for a create function, on an empty handle

 private:
  H h_ = nullptr;
};

using Engine = DnnlHandle<dnnl_engine_t, dnnl_engine_destroy>;
using Stream = DnnlHandle<dnnl_stream_t, dnnl_stream_destroy>;
using PrimitiveDesc = DnnlHandle<dnnl_primitive_desc_t, dnnl_primitive_desc_destroy>;
using Primitive = DnnlHandle<dnnl_primitive_t, dnnl_primitive_destroy>;
using Memory = DnnlHandle<dnnl_memory_t, dnnl_memory_destroy>;

// The CPU engine, created on first use (a failed creation throws and is
// retried by the next call). It lives until exit: oneDNN's own caches
// may still refer to it while other statics are destroyed.
dnnl_engine_t cpu_engine() {
  static const Engine* const engine = [] {
    Engine e;
    check_dnnl(dnnl_engine_create(e.out(), dnnl_cpu, 0), "dnnl_engine_create");
    return new Engine(std::move(e));
  }();
  return engine->get();
}

// One in-order stream per thread: a stream is not meant to be shared by
// concurrent submitters, and creating one costs about as much as a small
// execution.
dnnl_stream_t thread_stream() {
  thread_local Stream stream;
  if (stream.get() == nullptr) {
    check_dnnl(dnnl_stream_create(stream.out(), cpu_engine(), dnnl_stream_default_flags),
               "dnnl_stream_create");
  }
  return stream.get();
}

}  // namespace

void dnnl_gelu_erf_f32(float* dst, const float* src, int64_t n) {
  if (n == 0) return;
  ST_CHECK(n > 0, "dnnl_gelu_erf_f32: negative element count ", n);
  dnnl_engine_t engine = cpu_engine();
  dnnl_stream_t stream = thread_stream();

  dnnl_memory_desc_t md;
  const dnnl_dims_t dims = {static_cast<dnnl_dim_t>(n)};
  check_dnnl(dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a),
             "dnnl_memory_desc_init_by_tag");
  dnnl_eltwise_desc_t desc;
  check_dnnl(dnnl_eltwise_forward_desc_init(&desc, dnnl_forward_inference, dnnl_eltwise_gelu_erf,
                                            &md, 0.0f, 0.0f),
             "dnnl_eltwise_forward_desc_init");
  // A primitive per call: oneDNN's primitive cache returns the compiled
  // kernel of an earlier call of the same length, leaving ~1.5 us. A
  // cache of ours would need a lock, and the lengths TensorIterator's
  // parallel split hands out vary with the thread count.
  PrimitiveDesc pd;
  check_dnnl(dnnl_primitive_desc_create(pd.out(), &desc, nullptr, engine, nullptr),
             "dnnl_primitive_desc_create");
  Primitive prim;
  check_dnnl(dnnl_primitive_create(prim.out(), pd.get()), "dnnl_primitive_create");

  // oneDNN takes the source as a non-const handle; it only reads it.
  Memory src_mem;
  check_dnnl(dnnl_memory_create(src_mem.out(), &md, engine, const_cast<float*>(src)),
             "dnnl_memory_create");
  Memory dst_mem;
  check_dnnl(dnnl_memory_create(dst_mem.out(), &md, engine, dst), "dnnl_memory_create");
  const dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src_mem.get()}, {DNNL_ARG_DST, dst_mem.get()}};
  sync_dnnl_threads(/*split_by_caller=*/true);
  check_dnnl(dnnl_primitive_execute(prim.get(), stream, 2, args), "dnnl_primitive_execute");
  check_dnnl(dnnl_stream_wait(stream), "dnnl_stream_wait");
}

}  // namespace st::native
