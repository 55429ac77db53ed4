#include <torch/headeronly/util/Exception.h>

#include <gtest/gtest.h>

#include <string>

namespace {

std::string message_of(void (*fn)()) {
  try {
    fn();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(StdTorchCheck, PassingCheckDoesNothing) {
  int evaluated = 0;
  STD_TORCH_CHECK(++evaluated == 1, "never shown");
  EXPECT_EQ(evaluated, 1);  // the condition is evaluated exactly once
}

TEST(StdTorchCheck, FailingCheckNamesConditionAndMessage) {
  const std::string msg = message_of([] {
    const int rank = 3;
    STD_TORCH_CHECK(rank == 2, "expected a matrix but got rank ", rank);
  });
  EXPECT_NE(msg.find("Expected rank == 2 to be true, but got false."), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a matrix but got rank 3"), std::string::npos);
  EXPECT_NE(msg.find("test_exception.cpp"), std::string::npos) << msg;
}

TEST(StdTorchCheck, CheckWithoutMessage) {
  const std::string msg = message_of([] { STD_TORCH_CHECK(1 + 1 == 3); });
  EXPECT_NE(msg.find("Expected 1 + 1 == 3 to be true, but got false."), std::string::npos) << msg;
}

TEST(StdTorchCheck, MsgVariantShowsOnlyTheMessage) {
  const std::string msg = message_of([] { STD_TORCH_CHECK_MSG(false, "plain ", 42); });
  EXPECT_EQ(msg.rfind("plain 42", 0), 0u) << msg;
  EXPECT_EQ(msg.find("Expected"), std::string::npos);
}

TEST(StdTorchCheck, IsASingleStatement) {
  // Would not compile (dangling else) if the macro were not one statement.
  bool reached_else = false;
  if (false)
    STD_TORCH_CHECK(false, "unreachable");
  else
    reached_else = true;
  EXPECT_TRUE(reached_else);
}

}  // namespace
