#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include <st/native/copy.h>
#include <st/native/view_ops.h>

#include "tensor_test_util.h"

namespace {

using st::IntArrayRef;
using st::ScalarType;
using st::Tensor;
using st::testing::arange_float;
using st::testing::error_of;
using st::testing::float_at;
using st::testing::float_values;
namespace native = st::native;

using Shape = std::vector<int64_t>;

std::vector<float> iota(int64_t n, float start = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}

TEST(ViewOps, ViewSharesStorageAndInfers) {
  Tensor a = arange_float({4, 6});
  Tensor v = native::view(a, {3, -1, 2});
  EXPECT_EQ(v.sizes(), IntArrayRef({3, 4, 2}));
  EXPECT_EQ(v.strides(), IntArrayRef({8, 2, 1}));
  EXPECT_TRUE(v.is_alias_of(a));
  EXPECT_EQ(v.data_ptr(), a.data_ptr());
  EXPECT_EQ(float_values(v), iota(24));
}

TEST(ViewOps, ViewErrors) {
  Tensor a = arange_float({16});
  EXPECT_EQ(error_of([&] {
              native::view(a, {3, 5});
            }),
            "shape '[3, 5]' is invalid for input of size 16");
  EXPECT_EQ(error_of([&] { native::view(a, {-1, -1}); }), "only one dimension can be inferred");
  EXPECT_EQ(error_of([&] { native::view(a, {-2, 8}); }), "invalid shape dimension -2");
  Tensor t = native::transpose(arange_float({2, 3}), 0, 1);
  EXPECT_EQ(error_of([&] { native::view(t, {6}); }),
            "view size is not compatible with input tensor's size and stride "
            "(at least one dimension spans across two contiguous subspaces). "
            "Use .reshape(...) instead.");
  Tensor empty = arange_float({0, 4});
  EXPECT_NE(error_of([&] { native::view(empty, {0, -1}); }).find("ambiguous"), std::string::npos);
}

TEST(ViewOps, ViewOfNonContiguousWhenCompatible) {
  // Splitting a dim of a transposed tensor keeps the view.
  Tensor t = native::transpose(arange_float({4, 6}), 0, 1);  // [6, 4]
  Tensor v = native::view(t, {2, 3, 4});
  EXPECT_TRUE(v.is_alias_of(t));
  EXPECT_EQ(v.strides(), IntArrayRef({3, 1, 6}));
  EXPECT_EQ(float_values(v), float_values(t));
}

TEST(ViewOps, ReshapeCopiesOnlyWhenNeeded) {
  Tensor a = arange_float({2, 3});
  EXPECT_TRUE(native::reshape(a, {3, 2}).is_alias_of(a));
  Tensor t = native::t(a);
  Tensor r = native::reshape(t, {6});
  EXPECT_FALSE(r.is_alias_of(t));
  EXPECT_EQ(float_values(r), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(ViewOps, TransposeAndT) {
  Tensor a = arange_float({2, 3, 4});
  Tensor t = native::transpose(a, 0, -1);
  EXPECT_EQ(t.sizes(), IntArrayRef({4, 3, 2}));
  EXPECT_EQ(float_at(t, {3, 1, 1}), float_at(a, {1, 1, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(error_of([&] { native::t(a); }),
            "t() expects a tensor with <= 2 dimensions, but self is 3D");
  Tensor v = arange_float({5});
  EXPECT_EQ(native::t(v).sizes(), IntArrayRef({5}));
  EXPECT_EQ(error_of([&] { native::transpose(a, 0, 3); }),
            "Dimension out of range (expected to be in range of [-3, 2], but "
            "got 3)");
}

TEST(ViewOps, Permute) {
  Tensor a = arange_float({2, 3, 4});
  Tensor p = native::permute(a, {2, 0, 1});
  EXPECT_EQ(p.sizes(), IntArrayRef({4, 2, 3}));
  EXPECT_EQ(p.strides(), IntArrayRef({1, 12, 4}));
  EXPECT_EQ(float_at(p, {3, 1, 2}), float_at(a, {1, 2, 3}));
  EXPECT_EQ(error_of([&] {
              native::permute(a, {0, 1});
            }),
            "permute(): number of dimensions in the tensor input does not "
            "match the length of the desired ordering of dimensions i.e. "
            "input.dim() = 3 is not equal to len(dims) = 2");
  EXPECT_EQ(error_of([&] {
              native::permute(a, {0, 1, -3});
            }),
            "permute(): duplicate dims are not allowed.");
}

TEST(ViewOps, SliceLikePython) {
  Tensor a = arange_float({10});
  EXPECT_EQ(float_values(native::slice(a, 0, 2, 8, 3)), (std::vector<float>{2, 5}));
  EXPECT_EQ(float_values(native::slice(a, 0, -3)), (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(float_values(native::slice(a, 0, -100, 2)), (std::vector<float>{0, 1}));
  EXPECT_EQ(native::slice(a, 0, 8, 3).numel(), 0);
  EXPECT_EQ(native::slice(a, 0, 20, 30).numel(), 0);
  EXPECT_EQ(native::slice(a, 0, std::nullopt, -1).numel(), 9);
  Tensor s = native::slice(a, 0, 4, std::nullopt, 2);
  EXPECT_EQ(s.storage_offset(), 4);
  EXPECT_EQ(s.stride(0), 2);
  // Steps up to INT64_MAX: one element, no overflow (fuzz_call_dispatcher
  // found (e - s + step - 1) and stride * step overflowing).
  Tensor huge = native::slice(a, 0, 3, std::nullopt, INT64_MAX);
  EXPECT_EQ(float_values(huge), (std::vector<float>{3}));
  EXPECT_EQ(native::slice(a, 0, 3, 3, INT64_MAX).numel(), 0);
  EXPECT_EQ(float_values(native::slice(a, 0, 0, std::nullopt, 9)), (std::vector<float>{0, 9}));
  EXPECT_EQ(error_of([&] { native::slice(a, 0, 0, 5, 0); }), "slice step must be positive");
  Tensor scalar = st::detail::empty_generic({}, ScalarType::Float, st::Device("cpu"));
  EXPECT_EQ(error_of([&] { native::slice(scalar, 0, 0, 1); }),
            "slice() cannot be applied to a 0-dim tensor.");
}

TEST(ViewOps, NarrowAndSelect) {
  Tensor a = arange_float({3, 4});
  Tensor n = native::narrow(a, 1, -3, 2);
  EXPECT_EQ(float_values(n), (std::vector<float>{1, 2, 5, 6, 9, 10}));
  EXPECT_EQ(error_of([&] { native::narrow(a, 1, 2, 3); }),
            "start (2) + length (3) exceeds dimension size (4).");
  EXPECT_EQ(error_of([&] { native::narrow(a, 1, 5, 0); }),
            "start out of range (expected to be in range of [-4, 4], but got "
            "5)");
  EXPECT_EQ(error_of([&] { native::narrow(a, 1, 0, -1); }),
            "narrow(): length must be non-negative.");
  Tensor s = native::select(a, 1, -1);
  EXPECT_EQ(s.sizes(), IntArrayRef({3}));
  EXPECT_EQ(float_values(s), (std::vector<float>{3, 7, 11}));
  Tensor row = native::select(a, 0, 2);
  EXPECT_EQ(row.storage_offset(), 8);
  EXPECT_EQ(native::select(row, 0, 1).dim(), 0);
  EXPECT_EQ(error_of([&] { native::select(a, 0, 5); }),
            "select(): index 5 out of range for tensor of size [3, 4] at "
            "dimension 0");
}

TEST(ViewOps, SqueezeUnsqueeze) {
  Tensor a = arange_float({1, 3, 1, 2});
  EXPECT_EQ(native::squeeze(a).sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(native::squeeze(a, -2).sizes(), IntArrayRef({1, 3, 2}));
  EXPECT_EQ(native::squeeze(a, 1).sizes(), IntArrayRef({1, 3, 1, 2}));
  EXPECT_EQ(native::squeeze(a, {0, 2}).sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(native::squeeze(a, {0, 1}).sizes(), IntArrayRef({3, 1, 2}));
  EXPECT_EQ(error_of([&] {
              native::squeeze(a, {0, -4});
            }),
            "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(error_of([&] { native::squeeze(a, 4); }),
            "Dimension out of range (expected to be in range of [-4, 3], but "
            "got 4)");
  Tensor u = native::unsqueeze(arange_float({2, 3}), -1);
  EXPECT_EQ(u.sizes(), IntArrayRef({2, 3, 1}));
  EXPECT_EQ(u.strides(), IntArrayRef({3, 1, 1}));
  Tensor u0 = native::unsqueeze(arange_float({2, 3}), 0);
  EXPECT_EQ(u0.sizes(), IntArrayRef({1, 2, 3}));
  EXPECT_EQ(u0.strides(), IntArrayRef({6, 3, 1}));
  Tensor scalar = st::detail::empty_generic({}, ScalarType::Float, st::Device("cpu"));
  EXPECT_EQ(native::unsqueeze(scalar, -1).sizes(), IntArrayRef({1}));
  EXPECT_EQ(native::squeeze(scalar, 0).dim(), 0);
  EXPECT_EQ(error_of([&] { native::unsqueeze(a, 5); }),
            "Dimension out of range (expected to be in range of [-5, 4], but "
            "got 5)");
}

TEST(ViewOps, Expand) {
  Tensor a = arange_float({3, 1});
  Tensor e = native::expand(a, {2, -1, 4});
  EXPECT_EQ(e.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(e.strides(), IntArrayRef({0, 1, 0}));
  EXPECT_EQ(float_at(e, {1, 2, 3}), 2.0f);
  EXPECT_FALSE(e.is_non_overlapping_and_dense());
  EXPECT_EQ(error_of([&] { native::expand(a, {2}); }),
            "expand(torch.FloatTensor{[3, 1]}, size=[2]): the number of sizes "
            "provided (1) must be greater or equal to the number of "
            "dimensions in the tensor (2)");
  Tensor b = arange_float({2, 2});
  EXPECT_EQ(error_of([&] {
              native::expand(b, {2, 3});
            }),
            "The expanded size of the tensor (3) must match the existing size "
            "(2) at non-singleton dimension 1.  Target sizes: [2, 3].  Tensor "
            "sizes: [2, 2]");
  EXPECT_EQ(error_of([&] {
              native::expand(b, {-1, 2, 2});
            }),
            "The expanded size of the tensor (-1) isn't allowed in a leading, "
            "non-existing dimension 0");
  // Contiguous copy of an expanded tensor materialises the repeats.
  Tensor c = native::contiguous(native::expand(arange_float({3}), {2, 3}));
  EXPECT_EQ(float_values(c), (std::vector<float>{0, 1, 2, 0, 1, 2}));
}

TEST(ViewOps, FlattenUnflatten) {
  Tensor a = arange_float({2, 3, 4});
  EXPECT_EQ(native::flatten(a).sizes(), IntArrayRef({24}));
  EXPECT_EQ(native::flatten(a, 1).sizes(), IntArrayRef({2, 12}));
  EXPECT_EQ(native::flatten(a, 0, 1).sizes(), IntArrayRef({6, 4}));
  EXPECT_EQ(error_of([&] { native::flatten(a, 2, 1); }),
            "flatten() has invalid args: start_dim cannot come after end_dim");
  Tensor scalar = st::detail::empty_generic({}, ScalarType::Float, st::Device("cpu"));
  EXPECT_EQ(native::flatten(scalar).sizes(), IntArrayRef({1}));
  Tensor t = native::transpose(a, 0, 2);  // [4, 3, 2], not viewable flat
  Tensor f = native::flatten(t);
  EXPECT_FALSE(f.is_alias_of(t));
  EXPECT_EQ(float_values(f), float_values(t));

  Tensor u = native::unflatten(a, 2, {2, -1});
  EXPECT_EQ(u.sizes(), IntArrayRef({2, 3, 2, 2}));
  EXPECT_TRUE(u.is_alias_of(a));
  EXPECT_EQ(error_of([&] {
              native::unflatten(a, 1, {2, 2});
            }),
            "unflatten: Provided sizes [2, 2] don't multiply up to the size "
            "of dim 1 (3) in the input tensor");
  EXPECT_EQ(error_of([&] { native::unflatten(a, 1, {}); }), "unflatten: sizes must be non-empty");
  // A 0-dim tensor has no dimension to unflatten (PyTorch does not wrap
  // dim 0 or -1 onto a scalar here).
  EXPECT_EQ(error_of([&] {
              native::unflatten(scalar, 0, {1, -1});
            }),
            "Dimension specified as 0 but tensor has no dimensions");
}

TEST(ViewOps, AsStrided) {
  Tensor a = arange_float({3, 4});
  Tensor s = native::as_strided(a, {2, 2}, {1, 4}, 1);
  EXPECT_EQ(float_values(s), (std::vector<float>{1, 5, 2, 6}));
  EXPECT_EQ(error_of([&] {
              native::as_strided(a, {4, 4}, {4, 1});
            }),
            "setStorage: sizes [4, 4], strides [4, 1], storage offset 0, and "
            "itemsize 4 requiring a storage size of 64 are out of bounds for "
            "storage of size 48");
  EXPECT_EQ(error_of([&] { native::as_strided(a, {2}, {-1}); }),
            "as_strided: Negative strides are not supported at the moment, "
            "got strides: [-1]");
}

TEST(ViewOps, ViewDtype) {
  Tensor a = arange_float({2, 4});
  Tensor i = native::view(a, ScalarType::Int);
  EXPECT_EQ(i.scalar_type(), ScalarType::Int);
  EXPECT_EQ(i.sizes(), a.sizes());
  Tensor b = native::view(a, ScalarType::Byte);
  EXPECT_EQ(b.sizes(), IntArrayRef({2, 16}));
  EXPECT_EQ(b.strides(), IntArrayRef({16, 1}));
  Tensor d = native::view(a, ScalarType::Double);
  EXPECT_EQ(d.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(d.strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(error_of([&] { native::view(native::t(a), ScalarType::Short); }),
            "self.stride(-1) must be 1 to view Float as Short (different "
            "element sizes), but got 4");
  Tensor odd = arange_float({3});
  EXPECT_EQ(error_of([&] { native::view(odd, ScalarType::Double); }),
            "self.size(-1) must be divisible by 2 to view Float as Double "
            "(different element sizes), but got 3");
  Tensor off = native::slice(arange_float({4}), 0, 1);
  EXPECT_EQ(error_of([&] { native::view(native::slice(off, 0, 0, 2), ScalarType::Double); }),
            "self.storage_offset() must be divisible by 2 to view Float as "
            "Double (different element sizes), but got 1");
  Tensor scalar = st::detail::empty_generic({}, ScalarType::Float, st::Device("cpu"));
  EXPECT_EQ(error_of([&] { native::view(scalar, ScalarType::Short); }),
            "self.dim() cannot be 0 to view Float as Short (different element "
            "sizes)");
}

// Geometry that holds no element may be past what the new element count
// can express: an error naming the value, never a wrapped size or stride.
TEST(ViewOps, ViewDtypeAndSliceGeometryOverflow) {
  constexpr int64_t k2to62 = int64_t{1} << 62;
  Tensor empty = st::detail::empty_generic({0, k2to62}, ScalarType::Long, st::Device("cpu"));
  EXPECT_ST_ERROR_HAS(native::view(empty, ScalarType::Byte),
                      "view: the last size in the new dtype overflows int64: "
                      "4611686018427387904 * 8");
  Tensor one = arange_float({1, 2});
  Tensor tall = native::as_strided(one, {1, 2}, {INT64_MAX, 1}, 0);
  EXPECT_ST_ERROR_HAS(native::view(tall, ScalarType::Short),
                      "view: a stride in the new dtype overflows int64: 9223372036854775807 * 2");
  // The empty slice past a size-1 dim whose stride is INT64_MAX.
  Tensor shifted = native::as_strided(one, {1}, {INT64_MAX}, 1);
  EXPECT_ST_ERROR_HAS(native::slice(shifted, 0, 1, 2),
                      "slice: the storage offset overflows int64: 1 + 9223372036854775807");
  // Within range both still work.
  EXPECT_EQ(native::view(native::as_strided(one, {1, 2}, {k2to62 / 2, 1}, 0), ScalarType::Short)
                .strides(),
            IntArrayRef({k2to62, 1}));
  EXPECT_EQ(native::slice(native::as_strided(one, {1}, {k2to62}, 0), 0, 1, 2).numel(), 0);
}

TEST(ViewOps, ContiguousChannelsLast) {
  Tensor a = arange_float({2, 3, 4, 5});
  Tensor cl = native::contiguous(a, st::MemoryFormat::ChannelsLast);
  EXPECT_TRUE(cl.is_contiguous(st::MemoryFormat::ChannelsLast));
  EXPECT_EQ(float_values(cl), float_values(a));
  EXPECT_TRUE(native::contiguous(a).is_same(a));
  Tensor back = native::contiguous(cl);
  EXPECT_TRUE(back.is_contiguous());
  EXPECT_EQ(float_values(back), iota(120));
}

TEST(ViewOps, UndefinedInput) {
  Tensor u;
  EXPECT_EQ(error_of([&] { native::view(u, {1}); }),
            "view: expected a defined tensor, got an undefined one");
}

// Property test: random chains of views on random shapes. After each step
// the view, its contiguous copy (copy kernel) and its reshape to 1-d agree
// element by element, and views never copy.
TEST(ViewOps, RandomViewChainsAgreeWithCopies) {
  std::mt19937 rng(1234);
  auto rand_int = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 300; ++trial) {
    Shape shape;
    const int64_t nd = rand_int(1, 6);
    for (int64_t d = 0; d < nd; ++d) {
      shape.push_back(rand_int(1, 4));
    }
    Tensor base = arange_float(shape);
    Tensor v = base;
    for (int step = 0; step < 5; ++step) {
      const int64_t n = v.dim();
      Tensor next;
      switch (rand_int(0, 8)) {
        case 0:
          if (n > 0) next = native::transpose(v, rand_int(-n, n - 1), rand_int(0, n - 1));
          break;
        case 1:
          if (n > 0) {
            Shape perm(static_cast<size_t>(n));
            std::iota(perm.begin(), perm.end(), 0);
            std::shuffle(perm.begin(), perm.end(), rng);
            next = native::permute(v, perm);
          }
          break;
        case 2:
          if (n > 0) {
            const int64_t d = rand_int(0, n - 1);
            next = native::slice(v, d, rand_int(-5, 5), rand_int(-5, 5), rand_int(1, 3));
          }
          break;
        case 3:
          if (n > 0 && v.size(0) > 0) {
            next = native::select(v, 0, rand_int(-v.size(0), v.size(0) - 1));
          }
          break;
        case 4:
          next = native::unsqueeze(v, rand_int(-(n + 1), n));
          break;
        case 5:
          next = native::squeeze(v);
          break;
        case 6:
          if (n > 0 && v.size(n - 1) == 1) {
            Shape target = v.sizes().vec();
            target.back() = rand_int(1, 3);
            target.insert(target.begin(), 2);
            next = native::expand(v, target);
          } else {
            next = native::unsqueeze(v, 0);
          }
          break;
        case 7:
          if (n > 0) {
            const int64_t d = rand_int(0, n - 1);
            const int64_t len = rand_int(0, v.size(d));
            next = native::narrow(v, d, rand_int(0, v.size(d) - len), len);
          }
          break;
        case 8:
          if (n > 1) next = native::flatten(v, 0, 1);
          break;
      }
      if (!next.defined()) {
        continue;
      }
      if (next.numel() > 0) {
        // Views alias the base unless flatten had to copy.
        EXPECT_TRUE(next.is_alias_of(v) || !next.is_alias_of(base));
      }
      v = next;
      const std::vector<float> expected = float_values(v);
      Tensor c = native::contiguous(v);
      ASSERT_TRUE(c.is_contiguous());
      ASSERT_EQ(float_values(c), expected) << "trial " << trial;
      const int64_t flat = v.numel();
      Tensor r = native::reshape(v, IntArrayRef(&flat, 1));
      ASSERT_EQ(float_values(r), expected) << "trial " << trial;
      // view() succeeds exactly when reshape did not copy.
      std::string err = error_of([&] { native::view(v, IntArrayRef(&flat, 1)); });
      if (r.is_alias_of(v) && flat > 0) {
        EXPECT_EQ(err, "<no st::Error>");
      }
      if (v.is_contiguous()) {
        EXPECT_TRUE(r.is_alias_of(v));
      }
    }
  }
}

// Property test: random reshapes of random permutations keep element order.
TEST(ViewOps, RandomReshapesKeepOrder) {
  std::mt19937 rng(99);
  auto rand_int = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const Shape factors = {2, 3, 2, 2};  // numel 24
  for (int trial = 0; trial < 200; ++trial) {
    Shape perm = {0, 1, 2, 3};
    std::shuffle(perm.begin(), perm.end(), rng);
    Tensor p = native::permute(arange_float(factors), perm);
    const std::vector<float> expected = float_values(p);
    Shape target;
    int64_t remaining = 24;
    while (remaining > 1) {
      int64_t f = rand_int(1, remaining);
      while (remaining % f != 0) --f;
      target.push_back(f);
      remaining /= f;
    }
    if (target.empty()) target.push_back(24);
    if (rand_int(0, 1) == 1)
      target[static_cast<size_t>(rand_int(0, static_cast<int64_t>(target.size()) - 1))] = -1;
    Tensor r = native::reshape(p, target);
    ASSERT_EQ(float_values(r), expected);
    if (r.is_alias_of(p)) {
      Tensor v = native::view(p, target);
      EXPECT_EQ(v.strides(), r.strides());
    } else {
      EXPECT_NE(error_of([&] { native::view(p, target); }).find("view size"), std::string::npos);
    }
  }
}

TEST(CopyKernel, AllElementSizesAndStrides) {
  for (ScalarType dt : {ScalarType::Byte, ScalarType::Half, ScalarType::Int, ScalarType::Double,
                        ScalarType::ComplexDouble, ScalarType::Bool}) {
    Tensor src = st::detail::empty_generic({3, 4, 5}, dt, st::Device("cpu"));
    auto* bytes = static_cast<unsigned char*>(src.data_ptr());
    for (size_t i = 0; i < src.nbytes(); ++i) {
      bytes[i] = static_cast<unsigned char>(i * 7 + 1);
    }
    Tensor p = native::permute(src, {2, 0, 1});
    Tensor dst = st::detail::empty_generic({5, 3, 4}, dt, st::Device("cpu"));
    native::copy_same_dtype_(dst, p);
    // Round trip through the transposed layout restores the bytes.
    Tensor back = st::detail::empty_generic({3, 4, 5}, dt, st::Device("cpu"));
    native::copy_same_dtype_(native::permute(back, {2, 0, 1}), dst);
    EXPECT_EQ(std::memcmp(back.data_ptr(), src.data_ptr(), src.nbytes()), 0) << dt;
  }
}

TEST(CopyKernel, Errors) {
  Tensor a = arange_float({2, 3});
  Tensor b = st::detail::empty_generic({3, 2}, ScalarType::Float, st::Device("cpu"));
  EXPECT_EQ(error_of([&] { native::copy_same_dtype_(b, a); }),
            "copy_same_dtype_: expected src of size [3, 2] (the size of dst), "
            "got [2, 3]");
  Tensor c = st::detail::empty_generic({2, 3}, ScalarType::Int, st::Device("cpu"));
  EXPECT_EQ(error_of([&] { native::copy_same_dtype_(c, a); }),
            "copy_same_dtype_: expected src dtype Int (the dtype of dst), got "
            "Float");
}

TEST(CopyKernel, OverlapErrors) {
  Tensor a = arange_float({8});
  Tensor expanded = native::expand(arange_float({1}), {4});
  EXPECT_EQ(error_of([&] { native::copy_same_dtype_(expanded, native::slice(a, 0, 0, 4)); }),
            "copy_same_dtype_: unsupported operation: more than one element "
            "of the written-to tensor refers to a single memory location. "
            "Please clone() the tensor before performing the operation.");
  EXPECT_NE(error_of([&] {
              native::copy_same_dtype_(native::slice(a, 0, 1, 5), native::slice(a, 0, 0, 4));
            })
                .find("some elements of the input tensor and the written-to "
                      "tensor refer to a single memory location"),
            std::string::npos);
  // Disjoint halves of one storage are fine.
  native::copy_same_dtype_(native::slice(a, 0, 4, 8), native::slice(a, 0, 0, 4));
  EXPECT_EQ(float_values(a), (std::vector<float>{0, 1, 2, 3, 0, 1, 2, 3}));
  // Copying a tensor onto itself is a no-op.
  native::copy_same_dtype_(a, a);
}

// Large copies run in parallel; the result must not depend on the split.
TEST(CopyKernel, LargeParallelCopies) {
  Tensor src = arange_float({64, 48, 40});
  const std::vector<float> expected = float_values(native::permute(src, {2, 0, 1}));
  Tensor p = native::contiguous(native::permute(src, {2, 0, 1}));
  EXPECT_EQ(float_values(p), expected);
  Tensor flat = native::contiguous(native::slice(native::flatten(src), 0, 1, std::nullopt, 3));
  const std::vector<float> all = float_values(src);
  ASSERT_EQ(flat.numel(), static_cast<int64_t>((all.size() - 1 + 2) / 3));
  for (int64_t i = 0; i < flat.numel(); ++i) {
    ASSERT_EQ(flat.data_ptr<float>()[i], all[static_cast<size_t>(1 + 3 * i)]);
  }
  Tensor copy = st::detail::empty_generic({64, 48, 40}, ScalarType::Float, st::Device("cpu"));
  native::copy_same_dtype_(copy, src);
  EXPECT_EQ(std::memcmp(copy.data_ptr(), src.data_ptr(), src.nbytes()), 0);
}

}  // namespace
