// copy_ (every dtype pair, strides, broadcasting), fill_, clone, to, _to_copy.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <st/core/warning.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

const std::vector<ScalarType> kDtypes = {
    ScalarType::Byte,   ScalarType::Char,     ScalarType::Short,        ScalarType::Int,
    ScalarType::Long,   ScalarType::Half,     ScalarType::Float,        ScalarType::Double,
    ScalarType::Bool,   ScalarType::BFloat16, ScalarType::ComplexFloat, ScalarType::ComplexDouble,
    ScalarType::UInt16, ScalarType::UInt32,   ScalarType::UInt64};

TEST(NativeCopy, EveryDtypePair) {
  for (ScalarType from : kDtypes) {
    for (ScalarType to : kDtypes) {
      Tensor src = make1({0, 1, 2, 3}, from);
      Tensor dst = st::empty({4}, to);
      st::WarningCapture quiet;
      st::copy_(dst, src);
      const std::vector<double> want = to == ScalarType::Bool || from == ScalarType::Bool
                                           ? std::vector<double>{0, 1, 1, 1}
                                           : std::vector<double>{0, 1, 2, 3};
      if (from == ScalarType::Bool) {
        expect_close(values(dst), {0, 1, 1, 1});
      } else {
        expect_close(values(dst), want);
      }
    }
  }
}

// Note [Floating to integer conversion]: NaN, infinities and values outside
// the target's range give x86's results by definition (the fuzz stage's
// UBSan found the undefined cast through std.correction_out into uint8).
TEST(NativeCopy, FloatingToIntegerOutOfRangeIsDefined) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> in = {nan, inf, -inf, 3e10, -3e10, 300.7, -1.5};
  for (ScalarType from : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    SCOPED_TRACE(static_cast<int>(from));
    Tensor src = make1(in, ScalarType::Double).to(from);
    auto as_long = [&](ScalarType to) {
      std::vector<int64_t> out;
      Tensor dst = st::contiguous(src.to(to)).to(ScalarType::Long);
      for (int64_t i = 0; i < dst.numel(); ++i) out.push_back(dst.const_data_ptr<int64_t>()[i]);
      return out;
    };
    const int64_t lmin = std::numeric_limits<int64_t>::min();
    const int64_t imin = std::numeric_limits<int32_t>::min();
    // Half has no 3e10 or 300.7: it rounds them to inf and 300.75 -> 300;
    // float rounds 3e10 to 30000001024.
    const bool half = from == ScalarType::Half;
    const int64_t big = from == ScalarType::Float ? 30000001024 : 30000000000;
    EXPECT_EQ(as_long(ScalarType::Long), (std::vector<int64_t>{lmin, lmin, lmin, half ? lmin : big,
                                                               half ? lmin : -big, 300, -1}));
    EXPECT_EQ(as_long(ScalarType::Int),
              (std::vector<int64_t>{imin, imin, imin, imin, imin, 300, -1}));
    // Narrow signed types: through int32, then wrapped (300 -> 44).
    EXPECT_EQ(as_long(ScalarType::Char), (std::vector<int64_t>{0, 0, 0, 0, 0, 44, -1}));
    // Unsigned types: through int64, then wrapped (-1 -> 255).
    EXPECT_EQ(as_long(ScalarType::Byte), (std::vector<int64_t>{0, 0, 0, half ? 0 : (big & 0xff),
                                                               half ? 0 : (-big & 0xff), 44, 255}));
  }
}

TEST(NativeCopy, ConversionRules) {
  Tensor c = st::empty({1}, ScalarType::ComplexFloat);
  st::fill_(c, Scalar(std::complex<double>(1.5, -2)));
  Tensor f = st::empty({1});
  {
    st::WarningCapture cap;
    st::copy_(f, c);
    ASSERT_EQ(cap.messages().size(), 1u);
    EXPECT_NE(cap.messages()[0].find("discards the imaginary part"), std::string::npos);
  }
  expect_close(values(f), {1.5});
  Tensor b = st::empty({1}, ScalarType::Bool);
  st::copy_(b, c);
  expect_close(values(b), {1});
  Tensor u8 = st::empty({2}, ScalarType::Byte);
  st::copy_(u8, make1({-1, 2.7}));  // through int64: -1 wraps to 255, 2.7 truncates
  expect_close(values(u8), {255, 2});
  Tensor h = st::empty({1}, ScalarType::Half);
  st::copy_(h, make1({65520}, ScalarType::Double));  // rounds to inf in half
  EXPECT_TRUE(std::isinf(values(h)[0]));
  auto z = cvalues(st::to(make1({2}, ScalarType::Int), ScalarType::ComplexDouble));
  EXPECT_EQ(z[0], std::complex<double>(2, 0));
}

TEST(NativeCopy, StridesAndBroadcast) {
  Tensor dst = st::zeros({2, 3});
  st::copy_(dst, make1({1, 2, 3}, ScalarType::Int));
  expect_close(values(dst), {1, 2, 3, 1, 2, 3});
  Tensor t = st::zeros({3, 2}, ScalarType::Double);
  st::copy_(st::transpose(t, 0, 1), make({1, 2, 3, 4, 5, 6}, {2, 3}));
  expect_close(values(t), {1, 4, 2, 5, 3, 6});
  EXPECT_NATIVE_ERROR(st::copy_(st::zeros({2}), make1({1, 2, 3})), "");
  Tensor base = make1({0, 1, 2, 3});
  EXPECT_NATIVE_ERROR(st::copy_(st::narrow(base, 0, 0, 3), st::narrow(base, 0, 1, 3)),
                      "refer to a single memory location");
}

// The 8-bit floating types convert through float, both ways and between
// themselves; e8m0fnu holds powers of two (and rounds to them).
TEST(NativeCopy, Float8ThroughFloat) {
  const std::vector<ScalarType> f8 = {ScalarType::Float8_e5m2, ScalarType::Float8_e4m3fn,
                                      ScalarType::Float8_e5m2fnuz, ScalarType::Float8_e4m3fnuz,
                                      ScalarType::Float8_e8m0fnu};
  for (ScalarType t : f8) {
    for (ScalarType other : {ScalarType::Float, ScalarType::Double, ScalarType::Long,
                             ScalarType::Half, ScalarType::Float8_e4m3fn}) {
      const Tensor src = other == ScalarType::Float8_e4m3fn ? st::to(make1({0.5, 1, 2, 4}), other)
                                                            : make1({0.5, 1, 2, 4}, other);
      Tensor x = st::to(src, t);
      EXPECT_EQ(x.dtype(), t);
      expect_close(values(st::to(x, ScalarType::Float)), other == ScalarType::Long
                                                             ? std::vector<double>{0, 1, 2, 4}
                                                             : std::vector<double>{0.5, 1, 2, 4});
    }
  }
  // e8m0fnu rounds to a power of two; its byte is the biased exponent.
  Tensor e = st::to(make1({3.0, 0.25}, ScalarType::Float), ScalarType::Float8_e8m0fnu);
  const uint8_t* bits = static_cast<const uint8_t*>(e.data_ptr());
  EXPECT_EQ(bits[0], 129);  // 3 rounds up to 2^2 (PyTorch rounds a non-power up)
  EXPECT_EQ(bits[1], 125);  // 2^-2
  // Views and same-dtype copies work by bytes, Float4_e2m1fn_x2 included.
  Tensor packed = st::empty({2, 3}, ScalarType::Float4_e2m1fn_x2);
  st::copy_(st::view(packed, ScalarType::Byte),
            make1({1, 2, 3, 4, 5, 6}, ScalarType::Byte).view({2, 3}));
  Tensor t = st::empty({3, 2}, ScalarType::Float4_e2m1fn_x2);
  st::copy_(t, packed.t());
  expect_close(values(st::view(t, ScalarType::Byte)), {1, 4, 2, 5, 3, 6});
  EXPECT_NATIVE_ERROR(st::to(packed, ScalarType::Float), "not implemented for 'Float4_e2m1fn_x2'");
}

TEST(NativeFill, Float8) {
  Tensor e = st::empty({3}, ScalarType::Float8_e8m0fnu);
  e.fill_(8);
  expect_close(values(st::to(e, ScalarType::Float)), {8, 8, 8});
  Tensor f = st::empty({2}, ScalarType::Float8_e4m3fn);
  f.fill_(-1.5);
  expect_close(values(st::to(f, ScalarType::Float)), {-1.5, -1.5});
}

TEST(NativeFill, ScalarAndTensorValues) {
  Tensor t = st::empty({2, 2}, ScalarType::Int);
  st::fill_(t, 3);
  expect_close(values(t), {3, 3, 3, 3});
  st::fill_(t, make({5}, {}, ScalarType::Double));
  expect_close(values(t), {5, 5, 5, 5});
  EXPECT_NATIVE_ERROR(st::fill_(t, make1({1, 2})), "fill_ only supports 0-dimension value tensor");
  st::zero_(t);
  expect_close(values(t), {0, 0, 0, 0});
  Tensor strided = st::select(st::zeros({3, 2}), 1, 0);
  st::fill_(strided, 1.5);
  expect_close(values(strided), {1.5, 1.5, 1.5});
}

// A dense self (contiguous or permuted) is filled as one flat array, a zero
// bit pattern by memset: every dtype, sizes around the parallel grain, a
// transposed self, a view at an offset whose neighbours stay untouched, and
// -0.0 (not all zero bits) kept as -0.0.
TEST(NativeFill, DenseSelfEveryDtypeAndLayout) {
  for (ScalarType dtype : kDtypes) {
    for (int64_t n : {1, 7, 1000, 40000}) {
      Tensor t = st::empty({n}, dtype);
      st::fill_(t, 1);
      SCOPED_TRACE(::testing::Message() << "dtype " << dtype << " n " << n);
      expect_close(values(t), std::vector<double>(static_cast<size_t>(n), 1.0));
      st::zero_(t);
      expect_close(values(t), std::vector<double>(static_cast<size_t>(n), 0.0));
    }
  }
  Tensor m = st::transpose(st::zeros({3, 5}), 0, 1);  // dense, not contiguous
  st::fill_(m, 2.5);
  expect_close(values(m), std::vector<double>(15, 2.5));
  Tensor storage = st::full({10}, 9.0, ScalarType::Double);
  st::fill_(st::narrow(storage, 0, 3, 4), -1.0);
  expect_close(values(storage), {9, 9, 9, -1, -1, -1, -1, 9, 9, 9});
  st::zero_(st::narrow(storage, 0, 1, 2));
  expect_close(values(storage), {9, 0, 0, -1, -1, -1, -1, 9, 9, 9});
  Tensor z = st::empty({4}, ScalarType::Double);
  st::fill_(z, -0.0);
  for (double v : values(z)) EXPECT_TRUE(v == 0.0 && std::signbit(v));
  Tensor c = st::empty({3}, ScalarType::ComplexFloat);
  st::fill_(c, Scalar(std::complex<double>(0, -1)));
  for (auto v : cvalues(c)) EXPECT_EQ(v, std::complex<double>(0, -1));
  // 16-byte elements past one 64-byte vector and a tail.
  Tensor cd = st::empty({37}, ScalarType::ComplexDouble);
  st::fill_(cd, Scalar(std::complex<double>(1.5, -2)));
  for (auto v : cvalues(cd)) EXPECT_EQ(v, std::complex<double>(1.5, -2));
  Tensor f8 = st::empty({5}, ScalarType::Float8_e4m3fn);
  st::fill_(f8, 1.5);
  expect_close(values(st::_to_copy(f8, ScalarType::Float)), std::vector<double>(5, 1.5));
  Tensor e = st::empty({0, 3});
  EXPECT_TRUE(st::fill_(e, 1.0).is_same(e));
  EXPECT_NATIVE_ERROR(st::fill_(st::empty({2}, ScalarType::Byte), 300),
                      "value cannot be converted to type uint8_t without overflow");
}

TEST(NativeClone, PreservesLayoutAndCopies) {
  Tensor a = st::transpose(make({1, 2, 3, 4, 5, 6}, {2, 3}), 0, 1);
  Tensor c = st::clone(a);
  EXPECT_FALSE(c.is_alias_of(a));
  EXPECT_EQ(c.strides()[0], a.strides()[0]);
  expect_close(values(c), values(a));
  Tensor cc = st::clone(a, st::MemoryFormat::Contiguous);
  EXPECT_TRUE(cc.is_contiguous());
  Tensor ct = st::contiguous(a);
  EXPECT_TRUE(ct.is_contiguous());
}

TEST(NativeTo, AliasesWhenNothingChanges) {
  Tensor a = make1({1, 2});
  EXPECT_TRUE(st::to(a, ScalarType::Float).is_same(a));
  EXPECT_FALSE(st::to(a, ScalarType::Float, false, /*copy=*/true).is_same(a));
  EXPECT_TRUE(st::to(a, st::Device("cpu"), ScalarType::Float).is_same(a));
  Tensor d = st::to(a, make1({1}, ScalarType::Double));
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  Tensor l = st::to(a, ScalarType::Long);
  EXPECT_EQ(l.dtype(), ScalarType::Long);
  Tensor viaopts = st::to(a, std::optional<ScalarType>(ScalarType::Half));
  EXPECT_EQ(viaopts.dtype(), ScalarType::Half);
  Tensor copy = st::_to_copy(a);
  EXPECT_FALSE(copy.is_alias_of(a));
  expect_close(values(copy), {1, 2});
}

// zero_ writes a self whose elements share memory (PyTorch does); fill_
// refuses it.
TEST(NativeFill, ZeroWritesAnExpandedSelfFillRefusesIt) {
  Tensor base = make1({5, 6, 7});
  Tensor expanded = st::expand(base, {2, 3});
  st::zero_(expanded);
  expect_close(values(base), {0, 0, 0});
  EXPECT_NATIVE_ERROR(st::fill_(expanded, 1.0), "more than one element of the written-to tensor");
}

// to(memory_format=contiguous_format) with nothing else changing returns
// self when self's suggested format is contiguous, as PyTorch decides it:
// every tensor below 4-D, however strided.
TEST(NativeTo, ContiguousFormatAliasesBelowFourDims) {
  Tensor t = st::t(make({1, 2, 3, 4, 5, 6}, {2, 3}));
  Tensor r = st::to(t, ScalarType::Float, false, false, st::MemoryFormat::Contiguous);
  EXPECT_TRUE(r.is_same(t));
  Tensor cl = st::empty({2, 3, 4, 5}, ScalarType::Float, std::nullopt, std::nullopt, std::nullopt,
                        st::MemoryFormat::ChannelsLast);
  EXPECT_FALSE(
      st::to(cl, ScalarType::Float, false, false, st::MemoryFormat::Contiguous).is_same(cl));
  EXPECT_TRUE(
      st::to(cl, ScalarType::Float, false, false, st::MemoryFormat::ChannelsLast).is_same(cl));
}

}  // namespace
