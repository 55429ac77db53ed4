// Tests for st::IValue: every tag, checked accessors, equality, printing.
#include <gtest/gtest.h>

#include <sstream>

#include <st/dispatch/ivalue.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

using testing::errorOf;

std::string str(const IValue& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(IValueTest, EveryTag) {
  Tensor t = testing::tensorOn(DeviceType::CPU);
  EXPECT_TRUE(IValue().isNone());
  EXPECT_TRUE(IValue(std::nullopt).isNone());
  EXPECT_TRUE(IValue(t).isTensor());
  EXPECT_EQ(IValue(3).toInt(), 3);
  EXPECT_EQ(IValue(int64_t{1} << 40).toInt(), int64_t{1} << 40);
  EXPECT_DOUBLE_EQ(IValue(2.5).toDouble(), 2.5);
  EXPECT_TRUE(IValue(true).toBool());
  EXPECT_EQ(IValue("abc").toStringRef(), "abc");
  EXPECT_EQ(IValue(std::string("x")).toStringView(), "x");
  EXPECT_TRUE(IValue(Scalar(1.5)).isScalar());
  EXPECT_EQ(IValue(Device(DeviceType::CUDA, 1)).toDevice(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(IValue(ScalarType::Half).toScalarType(), ScalarType::Half);
  EXPECT_EQ(IValue(Layout::Strided).toLayout(), Layout::Strided);
  EXPECT_EQ(IValue(MemoryFormat::ChannelsLast).toMemoryFormat(), MemoryFormat::ChannelsLast);
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}).toIntVector(), (std::vector<int64_t>{1, 2}));
  std::vector<int64_t> sizes{4, 5};
  EXPECT_EQ(IValue(IntArrayRef(sizes)).toIntList().size(), 2u);
  EXPECT_EQ(IValue(std::vector<double>{0.5}).toDoubleVector(), std::vector<double>{0.5});
  EXPECT_EQ(IValue(std::vector<bool>{true, false}).toBoolVector(),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(IValue(std::array<bool, 2>{true, true}).toBoolVector().size(), 2u);
  EXPECT_EQ(IValue(std::vector<std::string>{"a"}).toStringVector(), std::vector<std::string>{"a"});
  EXPECT_EQ(IValue(std::vector<Tensor>{t, t}).toTensorVector().size(), 2u);
  IValue list = IValue::makeList({IValue(t), IValue()});
  EXPECT_TRUE(list.isList());
  auto opt = list.toOptionalTensorVector();
  ASSERT_EQ(opt.size(), 2u);
  EXPECT_TRUE(opt[0].has_value());
  EXPECT_FALSE(opt[1].has_value());
  IValue tup = IValue::makeTuple({IValue(1), IValue(t)});
  EXPECT_TRUE(tup.isTuple());
  EXPECT_EQ(tup.toTupleRef().size(), 2u);
  Generator g = make_cpu_generator(1);
  EXPECT_TRUE(IValue(g).isGenerator());
  EXPECT_EQ(IValue(g).toGenerator().get(), g.get());
  EXPECT_EQ(IValue(g), IValue(g));
  EXPECT_NE(IValue(g), IValue(make_cpu_generator(1)));
  EXPECT_EQ(str(IValue(g)), "Generator(device=cpu)");
  EXPECT_EQ(errorOf([] { IValue(1).toGenerator(); }), "expected Generator but got int");
  EXPECT_TRUE(IValue(std::optional<int64_t>()).isNone());
  EXPECT_EQ(IValue(std::optional<int64_t>(7)).toInt(), 7);
}

TEST(IValueTest, CheckedAccessorsNameBothTypes) {
  EXPECT_EQ(errorOf([] { IValue(3).toTensor(); }), "expected Tensor but got int");
  EXPECT_EQ(errorOf([] { IValue().toInt(); }), "expected int but got None");
  EXPECT_EQ(errorOf([] { IValue(1.0).toBool(); }), "expected bool but got float");
  EXPECT_EQ(errorOf([] { IValue("s").toIntVector(); }), "expected int[] but got str");
  EXPECT_EQ(errorOf([] { IValue(true).toStringRef(); }), "expected str but got bool");
  EXPECT_EQ(errorOf([] { IValue(std::vector<int64_t>{}).toScalar(); }),
            "expected Scalar but got int[]");
  EXPECT_EQ(errorOf([] { IValue(2).toOptionalTensorVector(); }), "expected Tensor?[] but got int");
}

TEST(IValueTest, ScalarAndEnumConversions) {
  EXPECT_EQ(IValue(3).toScalar().toLong(), 3);
  EXPECT_DOUBLE_EQ(IValue(0.5).toScalar().toDouble(), 0.5);
  EXPECT_TRUE(IValue(true).toScalar().isBoolean());
  // Schema defaults like `long` and `contiguous_format` arrive as ints.
  EXPECT_EQ(IValue(4).toScalarType(), ScalarType::Long);
  EXPECT_EQ(IValue(0).toMemoryFormat(), MemoryFormat::Contiguous);
  EXPECT_EQ(IValue(0).toLayout(), Layout::Strided);
  EXPECT_NE(errorOf([] { IValue(99).toMemoryFormat(); }).find("MemoryFormat ordinal"),
            std::string::npos);
}

TEST(IValueTest, OwnershipAndEquality) {
  Tensor t = testing::tensorOn(DeviceType::CPU);
  size_t before = t.use_count();
  {
    IValue a(t);
    EXPECT_EQ(t.use_count(), before + 1);
    IValue b = a;
    EXPECT_EQ(t.use_count(), before + 2);
    EXPECT_EQ(a, b);  // same TensorImpl
    IValue c = std::move(b);
    EXPECT_EQ(t.use_count(), before + 2);
    Tensor moved = std::move(c).toTensor();
    EXPECT_TRUE(moved.is_same(t));
  }
  EXPECT_EQ(t.use_count(), before);
  EXPECT_NE(IValue(t), IValue(testing::tensorOn(DeviceType::CPU)));
  EXPECT_EQ(IValue(1), IValue(1));
  EXPECT_NE(IValue(1), IValue(1.0));
  EXPECT_NE(IValue(1), IValue());
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}), IValue(std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue::makeList({IValue(1), IValue()}), IValue::makeList({IValue(1), IValue()}));
  EXPECT_NE(IValue::makeTuple({IValue(1)}), IValue::makeList({IValue(1)}));
  EXPECT_EQ(IValue(Scalar(2)), IValue(Scalar(2)));
  // Lists are values: copying copies.
  IValue l(std::vector<int64_t>{1});
  IValue l2 = l;
  EXPECT_NE(&l.toIntVector(), &l2.toIntVector());
}

TEST(IValueTest, Printing) {
  EXPECT_EQ(str(IValue()), "None");
  EXPECT_EQ(str(IValue(3)), "3");
  EXPECT_EQ(str(IValue(2.0)), "2.0");
  EXPECT_EQ(str(IValue(0.25)), "0.25");
  EXPECT_EQ(str(IValue(false)), "False");
  EXPECT_EQ(str(IValue("hi")), "'hi'");
  EXPECT_EQ(str(IValue(std::vector<int64_t>{1, 2})), "[1, 2]");
  EXPECT_EQ(str(IValue(ScalarType::Float)), "Float");
  EXPECT_EQ(str(IValue(Device(DeviceType::CUDA, 1))), "cuda:1");
  EXPECT_EQ(str(IValue::makeTuple({IValue(1), IValue("a")})), "(1, 'a')");
  EXPECT_EQ(str(IValue(testing::tensorOn(DeviceType::CPU))),
            "Tensor(sizes=[2], dtype=Float, device=cpu)");
  EXPECT_EQ(str(IValue(Tensor())), "Tensor(undefined)");
  EXPECT_EQ(str(IValue(std::vector<bool>{true})), "[True]");
}

}  // namespace
}  // namespace st
