#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <sstream>

#include <st/core/scalar.h>

#include "tensor_test_util.h"

namespace {

using st::Scalar;
using st::ScalarType;
using st::testing::error_of;

TEST(Scalar, TagsAndTypes) {
  EXPECT_EQ(Scalar(true).type(), ScalarType::Bool);
  EXPECT_EQ(Scalar(3).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(int8_t{3}).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(2.5f).type(), ScalarType::Double);
  EXPECT_EQ(Scalar(std::complex<double>(1, 2)).type(), ScalarType::ComplexDouble);
  EXPECT_TRUE(Scalar(true).isIntegral(true));
  EXPECT_FALSE(Scalar(true).isIntegral(false));
  EXPECT_TRUE(Scalar(1).isIntegral(false));
  EXPECT_TRUE(Scalar(1.0).isFloatingPoint());
  EXPECT_TRUE(Scalar(std::complex<float>(1, 0)).isComplex());
  EXPECT_TRUE(Scalar().isIntegral(false));
}

TEST(Scalar, CheckedConversions) {
  EXPECT_EQ(Scalar(127).to<int8_t>(), 127);
  EXPECT_EQ(Scalar(-1).to<uint8_t>(), 255);  // wraps like PyTorch
  EXPECT_EQ(Scalar(2.75).to<int64_t>(), 2);
  EXPECT_EQ(Scalar(3).to<double>(), 3.0);
  EXPECT_EQ(Scalar(true).to<float>(), 1.0f);
  EXPECT_EQ(Scalar(0.5).to<bool>(), true);
  EXPECT_EQ(Scalar(std::complex<double>(2, 0)).to<int>(), 2);
  EXPECT_EQ(Scalar(1.5).toComplexDouble(), std::complex<double>(1.5, 0));
  EXPECT_TRUE(std::isnan(Scalar(std::nan("")).to<float>()));
  EXPECT_TRUE(std::isinf(Scalar(INFINITY).to<float>()));
  EXPECT_EQ(error_of([] { Scalar(300).to<int8_t>(); }),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_of([] { Scalar(1e300).to<float>(); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(error_of([] { Scalar(1e19).to<int64_t>(); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(error_of([] { Scalar(std::nan("")).to<int32_t>(); }),
            "value cannot be converted to type int32_t without overflow");
  EXPECT_EQ(error_of([] { Scalar(std::complex<double>(1, 1)).to<double>(); }),
            "value cannot be converted to type double without overflow");
  EXPECT_EQ(error_of([] { Scalar(uint64_t{1} << 63); }),
            "Scalar: unsigned value 9223372036854775808 does not fit in int64");
  EXPECT_EQ(Scalar(std::numeric_limits<int64_t>::min()).to<int64_t>(),
            std::numeric_limits<int64_t>::min());
}

TEST(Scalar, ReducedAndHeaderonlyComplexTargets) {
  using torch::headeronly::BFloat16;
  using torch::headeronly::Half;
  EXPECT_EQ(static_cast<float>(Scalar(1.5).to<Half>()), 1.5f);
  EXPECT_EQ(static_cast<float>(Scalar(2).to<BFloat16>()), 2.0f);
  EXPECT_EQ(error_of([] { Scalar(1e6).to<Half>(); }),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_TRUE(std::isinf(static_cast<float>(Scalar(INFINITY).to<Half>())));
  const auto z = Scalar(std::complex<double>(1, -2)).to<torch::headeronly::complex<float>>();
  EXPECT_EQ(z.real(), 1.0f);
  EXPECT_EQ(z.imag(), -2.0f);
  const auto zh = Scalar(3).to<torch::headeronly::complex<Half>>();
  EXPECT_EQ(static_cast<float>(zh.real()), 3.0f);
}

TEST(Scalar, NegationEqualityPrinting) {
  EXPECT_TRUE((-Scalar(3)).equal(Scalar(-3)));
  EXPECT_TRUE((-Scalar(1.5)).equal(Scalar(-1.5)));
  EXPECT_FALSE(Scalar(1).equal(Scalar(1.0)));
  EXPECT_NE(error_of([] { -Scalar(true); }).find("bool"), std::string::npos);
  EXPECT_NE(error_of([] { -Scalar(std::numeric_limits<int64_t>::min()); }).find("overflows int64"),
            std::string::npos);
  std::ostringstream os;
  os << Scalar(3) << " " << Scalar(true) << " " << Scalar(0.5) << " "
     << Scalar(std::complex<double>(1, -2));
  EXPECT_EQ(os.str(), "3 true 0.5 (1-2j)");
}

}  // namespace
