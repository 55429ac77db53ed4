// Tests for st::Tag's names and ordinal decoding.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <st/dispatch/tag.h>

namespace st {
namespace {

TEST(TagTest, NamesAreTorchsAndRoundTrip) {
  EXPECT_EQ(kNumTags, 20);
  EXPECT_STREQ(toString(Tag::pointwise), "pointwise");
  EXPECT_STREQ(toString(Tag::pt2_compliant_tag), "pt2_compliant_tag");
  EXPECT_STREQ(toString(Tag::view_copy), "view_copy");
  for (int32_t i = 0; i < kNumTags; ++i) {
    const Tag t = static_cast<Tag>(i);
    EXPECT_NE(std::string(toString(t)), "UNKNOWN_TAG") << i;
    EXPECT_EQ(parseTag(toString(t)), t) << toString(t);
  }
  EXPECT_FALSE(parseTag("Pointwise").has_value());
  EXPECT_FALSE(parseTag("").has_value());
  std::ostringstream os;
  os << Tag::inplace_view;
  EXPECT_EQ(os.str(), "inplace_view");
}

TEST(TagTest, FromOrdinalRefusesWhatNoTagHas) {
  EXPECT_EQ(tagFromOrdinal(0), Tag::core);
  EXPECT_EQ(tagFromOrdinal(19), Tag::view_copy);
  EXPECT_FALSE(tagFromOrdinal(-1).has_value());
  EXPECT_FALSE(tagFromOrdinal(20).has_value());
  EXPECT_FALSE(tagFromOrdinal(INT64_MIN).has_value());
}

}  // namespace
}  // namespace st
