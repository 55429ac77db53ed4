// Linear algebra: mm, bmm, addmm, matmul, mv, dot. The products go through
// gemm_tensors (gemm.h): oneDNN for float, the packed GEMM of dgemm.h for
// double, integers through either when exact, a blocked loop otherwise.
#include <algorithm>
#include <complex>
#include <initializer_list>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/reduction.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "dot_checks.h"
#include "gemm.h"
#include "gemm_out_checks.h"
#include "cpu/vec_reduce_kernels.h"
#include "host_memory.h"

namespace st::native {

namespace {

const char* dtype_name(ScalarType t) { return torch::headeronly::toString(t); }

void check_matrix(const Tensor& t, const char* op, const char* arg) {
  ST_CHECK(t.dim() == 2, op, ": ", arg, " must be a matrix, got ", t.dim(), "-D tensor");
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* op, const char* an,
                      const char* bn) {
  ST_CHECK(a.dtype() == b.dtype(), op, ": expected ", an, " and ", bn,
           " to have the same dtype, but got: ", dtype_name(a.dtype()),
           " != ", dtype_name(b.dtype()));
}

void check_mm_shapes(const Tensor& a, const Tensor& b, const char* op) {
  ST_CHECK(a.size(1) == b.size(0), op, ": mat1 and mat2 shapes cannot be multiplied (", a.size(0),
           "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
}

// Every operand in host memory, on the first operand's device.
void check_devices(const char* op,
                   std::initializer_list<std::pair<const Tensor*, const char*>> args) {
  const Device device = args.begin()->first->device();
  for (const auto& [t, name] : args) {
    check_host_memory(*t, op, name);
    check_same_device(*t, device, op, name);
  }
}

void check_gemm_dtype(ScalarType t, const char* op) {
  if ((kGemmTypes & dtype_bit(t)) == 0) throw_dtype_not_implemented(op, t);
}

// out = alpha * a @ b + beta * out for 2-d tensors.
void mm_into(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha,
             const Scalar& beta, const char* op) {
  gemm_tensors(out, a, b, alpha, beta, op);
}

void check_mm_args(const Tensor& self, const Tensor& mat2, const char* op) {
  check_devices(op, {{&self, "self"}, {&mat2, "mat2"}});
  check_matrix(self, op, "self");
  check_matrix(mat2, op, "mat2");
  check_mm_shapes(self, mat2, op);
  check_same_dtype(self, mat2, op, "mat1", "mat2");
  check_gemm_dtype(self.dtype(), op);
}

void check_bmm_args(const Tensor& self, const Tensor& mat2, const char* op) {
  check_devices(op, {{&self, "self"}, {&mat2, "mat2"}});
  ST_CHECK(self.dim() == 3, op, ": batch1 must be a 3D tensor, got ", self.dim(), "-D tensor");
  ST_CHECK(mat2.dim() == 3, op, ": batch2 must be a 3D tensor, got ", mat2.dim(), "-D tensor");
  ST_CHECK(mat2.size(0) == self.size(0) && mat2.size(1) == self.size(2), op,
           ": Expected size for first two dimensions of batch2 tensor to be: [", self.size(0), ", ",
           self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  check_same_dtype(self, mat2, op, "batch1", "batch2");
  check_gemm_dtype(self.dtype(), op);
}

bool scalar_is_zero(const Scalar& s) {
  if (s.isComplex()) return s.toComplexDouble() == std::complex<double>(0, 0);
  return s.toDouble() == 0;
}

}  // namespace

// ---- mm / bmm ---------------------------------------------------------------

Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_mm_args(self, mat2, "mm");
  Tensor out = st::detail::empty_generic({self.size(0), mat2.size(1)}, self.dtype(), self.device());
  mm_into(out, self, mat2, 1, 0, "mm");
  return out;
}

Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_mm_args(self, mat2, "mm");
  check_gemm_out_dtype(out, self.dtype(), "mm");
  resize_output(out, {self.size(0), mat2.size(1)});
  mm_into(out, self, mat2, 1, 0, "mm");
  return out;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_bmm_args(self, mat2, "bmm");
  Tensor out = st::detail::empty_generic({self.size(0), self.size(1), mat2.size(2)}, self.dtype(),
                                         self.device());
  gemm_tensors(out, self, mat2, 1, 0, "bmm");
  return out;
}

Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_bmm_args(self, mat2, "bmm");
  check_gemm_out_dtype(out, self.dtype(), "bmm");
  resize_output(out, {self.size(0), self.size(1), mat2.size(2)});
  gemm_tensors(out, self, mat2, 1, 0, "bmm");
  return out;
}

// ---- addmm --------------------------------------------------------------------

namespace {

void check_addmm_args(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const char* op) {
  check_devices(op, {{&mat1, "mat1"}, {&mat2, "mat2"}, {&self, "self"}});
  check_matrix(mat1, op, "mat1");
  check_matrix(mat2, op, "mat2");
  check_mm_shapes(mat1, mat2, op);
  check_same_dtype(mat1, mat2, op, "mat1", "mat2");
  check_same_dtype(self, mat2, op, "self", "mat2");
  check_gemm_dtype(mat1.dtype(), op);
}

// out (shape [n, p], dtype checked) = beta * self + alpha * mat1 @ mat2.
void addmm_into(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar& beta, const Scalar& alpha, const char* op) {
  if (scalar_is_zero(beta)) {
    mm_into(out, mat1, mat2, alpha, 0, op);
    return;
  }
  if (!out.is_same(self)) {
    const std::vector<int64_t> shape{mat1.size(0), mat2.size(1)};
    Tensor s = self;
    if (self.dim() != 2 || self.size(0) != shape[0] || self.size(1) != shape[1]) {
      ST_CHECK(self.dim() <= 2, op, ": self must be broadcastable to [", shape[0], ", ", shape[1],
               "], got a ", self.dim(), "-D tensor");
      infer_size(self.sizes(), IntArrayRef(shape));  // the broadcast error, if any
      s = st::expand(self, IntArrayRef(shape));
    }
    if (out.is_alias_of(s)) s = st::clone(s);
    copy_into(out, s);
  }
  if (mat1.size(1) == 0) {
    // An empty product: beta * self (oneDNN rejects k == 0; keep
    // PyTorch's exact rounding of a plain scale).
    st::mul_(out, beta);
    return;
  }
  mm_into(out, mat1, mat2, alpha, beta, op);
}

}  // namespace

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  check_addmm_args(self, mat1, mat2, "addmm");
  Tensor out = st::detail::empty_generic({mat1.size(0), mat2.size(1)}, mat1.dtype(), mat1.device());
  addmm_into(out, self, mat1, mat2, beta, alpha, "addmm");
  return out;
}

Tensor addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out) {
  check_addmm_args(self, mat1, mat2, "addmm");
  check_gemm_out_dtype(out, mat1.dtype(), "addmm");
  if (!out.is_same(self)) resize_output(out, {mat1.size(0), mat2.size(1)});
  check_addmm_out_shape(out, mat1, mat2);
  addmm_into(out, self, mat1, mat2, beta, alpha, "addmm");
  return out;
}

Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha) {
  check_addmm_args(self, mat1, mat2, "addmm_");
  check_addmm_inplace_shape(self, mat1, mat2);
  assert_no_internal_overlap(self, "addmm_");
  addmm_into(self, self, mat1, mat2, beta, alpha, "addmm_");
  return self;
}

// ---- dot / mv --------------------------------------------------------------------

namespace {

void check_dot_args(const Tensor& self, const Tensor& tensor) {
  check_devices("dot", {{&self, "self"}, {&tensor, "tensor"}});
  check_dot_shapes(self, tensor);
}

}  // namespace

void check_dot_shapes(const Tensor& self, const Tensor& tensor) {
  ST_CHECK(self.dim() == 1 && tensor.dim() == 1, "dot: 1D tensors expected, but got ", self.dim(),
           "D and ", tensor.dim(), "D tensors");
  ST_CHECK(self.dtype() == tensor.dtype(),
           "dot : expected both vectors to have same dtype, but found ", dtype_name(self.dtype()),
           " and ", dtype_name(tensor.dtype()));
  ST_CHECK(self.numel() == tensor.numel(), "dot: inconsistent tensor size, expected tensor [",
           self.numel(), "] and src [", tensor.numel(),
           "] to have the same number of elements, but got ", self.numel(), " and ", tensor.numel(),
           " elements respectively");
}

Tensor dot(const Tensor& self, const Tensor& tensor) {
  check_dot_args(self, tensor);
  Tensor out = st::detail::empty_generic({}, self.dtype(), self.device());
  dispatch_dtype<kGemmTypes>(self.dtype(), "dot", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    const T* a = static_cast<const T*>(self.const_data_ptr());
    const T* b = static_cast<const T*>(tensor.const_data_ptr());
    const int64_t sa = self.stride(0), sb = tensor.stride(0), n = self.numel();
    T* result = static_cast<T*>(out.data_ptr());
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // Float and double vectors: the per-ISA loop (several vector
      // accumulators; float blocks widened into double lanes), strided
      // ones by blocks gathered into stack buffers (the per-ISA stride-2
      // gather for a sliced view), the blocks' sums added in double.
      const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
      const auto run = [&k](const T* x, const T* y, int64_t m) -> double {
        if constexpr (std::is_same_v<T, float>) {
          return k.dot_f32(x, y, m);
        } else {
          return k.dot_f64(x, y, m);
        }
      };
      if (sa == 1 && sb == 1) {
        *result = static_cast<T>(run(a, b, n));
        return;
      }
      constexpr int64_t kBlock = 2048;
      alignas(64) T ba[kBlock];
      alignas(64) T bb[kBlock];
      double total = 0;
      for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
        const int64_t m = std::min(kBlock, n - i0);
        const T* x = a + i0 * sa;
        const T* y = b + i0 * sb;
        if (sa != 1) {
          detail::gather_strided(ba, x, m, sa, sizeof(T));
          x = ba;
        }
        if (sb != 1) {
          detail::gather_strided(bb, y, m, sb, sizeof(T));
          y = bb;
        }
        total += run(x, y, m);
      }
      *result = static_cast<T>(total);
      return;
    }
    // Four independent partial sums: the loop vectorizes and rounding
    // error grows more slowly than with one running sum.
    O acc[4] = {O(0), O(0), O(0), O(0)};
    int64_t i = 0;
    if (sa == 1 && sb == 1) {
      for (; i + 4 <= n; i += 4) {
        for (int j = 0; j < 4; ++j) acc[j] += to_opmath(a[i + j]) * to_opmath(b[i + j]);
      }
    }
    for (; i < n; ++i) acc[0] += to_opmath(a[i * sa]) * to_opmath(b[i * sb]);
    *result = from_opmath<T>((acc[0] + acc[1]) + (acc[2] + acc[3]));
  });
  return out;
}

Tensor dot_out(const Tensor& self, const Tensor& tensor, const Tensor& out) {
  Tensor r = st::dot(self, tensor);
  check_gemm_out_dtype(out, r.dtype(), "dot");
  resize_output(out, {});
  st::copy_(out, r);
  return out;
}

namespace {

void check_mv_shapes(const Tensor& self, const Tensor& vec) {
  ST_CHECK(self.dim() == 2 && vec.dim() == 1, "mv: expected a 2-D matrix and a 1-D vector, got ",
           self.dim(), "-D and ", vec.dim(), "-D tensors");
  ST_CHECK(self.size(1) == vec.size(0), "mv: size mismatch, got mat (", self.size(0), "x",
           self.size(1), "), vec (", vec.size(0), ")");
}

// mv's checks: its shapes, then mm's (mv is mm with vec as a column).
void check_mv_args(const Tensor& self, const Tensor& vec) {
  check_mv_shapes(self, vec);
  check_devices("mm", {{&self, "self"}, {&vec, "mat2"}});
  check_same_dtype(self, vec, "mm", "mat1", "mat2");
  check_gemm_dtype(self.dtype(), "mm");
}

// out = self @ vec as the [m, 1] product of gemm, on the tensors' own
// strides: no view objects per call (at small sizes a matrix-vector
// product is mostly set-up). An operand gemm cannot address is copied
// first; an out gemm cannot address or that shares memory with an input
// takes a temporary.
void mv_into(const Tensor& out, const Tensor& self, const Tensor& vec) {
  const int64_t m = self.size(0), k = self.size(1);
  if (m == 0) return;
  Tensor a = self, b = vec, c = out;
  GemmOperand ga = gemm_layout(m, k, a.stride(0), a.stride(1));
  if (!ga.ok) {
    a = st::contiguous(self);
    ga = gemm_layout(m, k, a.stride(0), a.stride(1));
  }
  GemmOperand gb = gemm_layout(k, 1, b.stride(0), 1);
  if (!gb.ok) {
    b = st::contiguous(vec);
    gb = gemm_layout(k, 1, b.stride(0), 1);
  }
  GemmOperand gc = gemm_layout(m, 1, c.stride(0), 1);
  const bool temporary = !gc.ok || out.is_alias_of(self) || out.is_alias_of(vec);
  if (temporary) {
    c = st::detail::empty_generic({m}, out.dtype(), out.device());
    gc = gemm_layout(m, 1, c.stride(0), 1);
  }
  dispatch_dtype<kGemmTypes>(self.dtype(), "mv", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    gemm<T>(ga.trans, gb.trans, m, 1, k, O(1), static_cast<const T*>(a.const_data_ptr()), ga.ld,
            static_cast<const T*>(b.const_data_ptr()), gb.ld, O(0), static_cast<T*>(c.data_ptr()),
            gc.ld);
  });
  if (temporary) copy_into(out, c);
}

}  // namespace

Tensor mv(const Tensor& self, const Tensor& vec) {
  check_mv_args(self, vec);
  Tensor out = st::detail::empty_generic({self.size(0)}, self.dtype(), self.device());
  mv_into(out, self, vec);
  return out;
}

Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  check_mv_args(self, vec);
  check_gemm_out_dtype(out, self.dtype(), "mv");
  // Through a temporary when out lives elsewhere or shares memory with an
  // input (resizing it must not move what the product reads).
  if (out.device() != self.device() || out.is_alias_of(self) || out.is_alias_of(vec)) {
    Tensor r = st::mv(self, vec);
    resize_output(out, r.sizes());
    st::copy_(out, r);
    return out;
  }
  resize_output(out, {self.size(0)});
  mv_into(out, self, vec);
  return out;
}

// ---- matmul --------------------------------------------------------------------------

Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t d1 = self.dim(), d2 = other.dim();
  ST_CHECK(d1 > 0 && d2 > 0,
           "matmul: both arguments to matmul need to be at least 1D, but they are ", d1, "D and ",
           d2, "D");
  if (d1 == 1 && d2 == 1) return st::dot(self, other);
  if (d1 == 2 && d2 == 1) return st::mv(self, other);
  if (d1 == 1 && d2 == 2) return st::squeeze(st::mm(st::unsqueeze(self, 0), other), 0);
  if (d1 == 2 && d2 == 2) return st::mm(self, other);
  if (d1 >= 3 && d2 <= 2) {
    // Fold the batch dims of self into its rows: one mm instead of a bmm.
    const int64_t n = self.size(-1 + d1);
    ST_CHECK(n == other.size(0), "matmul: mat1 and mat2 shapes cannot be multiplied (",
             self.numel() / std::max<int64_t>(n, 1), "x", n, " and ", other.size(0), "x",
             d2 == 2 ? other.size(1) : 1, ")");
    std::vector<int64_t> out_shape(self.sizes().begin(), self.sizes().end() - 1);
    int64_t rows = 1;
    for (int64_t s : out_shape) rows *= s;
    Tensor m2 = d2 == 1 ? st::unsqueeze(other, 1) : other;
    Tensor r = st::mm(st::reshape(self, {rows, n}), m2);
    if (d2 == 2) out_shape.push_back(other.size(1));
    return st::view(r, IntArrayRef(out_shape));
  }
  // General case: broadcast the batch dims and run one bmm.
  Tensor a = d1 == 1 ? st::unsqueeze(self, 0) : self;
  Tensor b = d2 == 1 ? st::unsqueeze(other, 1) : other;
  const int64_t n = a.size(-2 + a.dim()), m = a.size(-1 + a.dim());
  const int64_t m2 = b.size(-2 + b.dim()), p = b.size(-1 + b.dim());
  ST_CHECK(m == m2, "matmul: mat1 and mat2 shapes cannot be multiplied (", n, "x", m, " and ", m2,
           "x", p, ")");
  const IntArrayRef ba(a.sizes().data(), static_cast<size_t>(a.dim() - 2));
  const IntArrayRef bb(b.sizes().data(), static_cast<size_t>(b.dim() - 2));
  std::vector<int64_t> batch = infer_size(ba, bb);
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  std::vector<int64_t> ea(batch), eb(batch);
  ea.push_back(n);
  ea.push_back(m);
  eb.push_back(m);
  eb.push_back(p);
  Tensor a3 = st::reshape(st::expand(a, IntArrayRef(ea)), {nb, n, m});
  Tensor b3 = st::reshape(st::expand(b, IntArrayRef(eb)), {nb, m, p});
  Tensor r = st::bmm(a3, b3);
  std::vector<int64_t> out_shape(batch);
  if (d1 > 1) out_shape.push_back(n);
  if (d2 > 1) out_shape.push_back(p);
  return st::view(r, IntArrayRef(out_shape));
}

Tensor matmul_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  // A matrix product and a matrix-vector product go to their own out=
  // kernels, which write into out: no result to allocate and copy. Other
  // ranks, an out whose dtype or device differs (its errors are matmul's),
  // and an out that shares memory with an input take the result and copy it.
  const bool direct = out.dtype() == self.dtype() && out.device() == self.device() &&
                      !out.is_alias_of(self) && !out.is_alias_of(other);
  if (direct && self.dim() == 2 && other.dim() == 2) return st::mm_outf(self, other, out);
  if (direct && self.dim() == 2 && other.dim() == 1) return st::mv_outf(self, other, out);
  Tensor r = st::matmul(self, other);
  check_gemm_out_dtype(out, r.dtype(), "matmul");
  resize_output(out, r.sizes());
  st::copy_(out, r);
  return out;
}

// ---- the out= checks the CUDA kernels share (gemm_out_checks.h) --------------------------

void check_gemm_out_dtype(const Tensor& out, ScalarType want, const char* op) {
  ST_CHECK(out.dtype() == want, op, ": Expected out tensor to have dtype ", dtype_name(want),
           ", but got ", dtype_name(out.dtype()), " instead");
}

void check_addmm_inplace_shape(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  ST_CHECK(self.dim() == 2 && self.size(0) == mat1.size(0) && self.size(1) == mat2.size(1),
           "addmm_: self must have shape [", mat1.size(0), ", ", mat2.size(1),
           "] (in-place results cannot broadcast), got ", shape_str(self.sizes()));
}

void check_addmm_out_shape(const Tensor& out, const Tensor& mat1, const Tensor& mat2) {
  // mat1 and mat2 may not be matrices yet where the CUDA kernel checks
  // out = self first.
  const int64_t rows = mat1.dim() == 2 ? mat1.size(0) : -1;
  const int64_t cols = mat2.dim() == 2 ? mat2.size(1) : -1;
  ST_CHECK(out.dim() == 2 && rows >= 0 && cols >= 0 && out.size(0) == rows && out.size(1) == cols,
           "addmm: out must have shape [", rows, ", ", cols, "], got ", shape_str(out.sizes()));
}

}  // namespace st::native
