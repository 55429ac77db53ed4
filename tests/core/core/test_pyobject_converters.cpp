// The registry of Python object converters: empty until a Python module
// installs a table, and empty again once it is removed.
#include <gtest/gtest.h>

#include <st/core/pyobject_converters.h>

namespace {

TEST(PyObjectConverters, InstallAndRemove) {
  ASSERT_EQ(st::pyobject_converters(), nullptr);  // no Python in this process
  static const st::PyObjectConverters table{};
  st::set_pyobject_converters(&table);
  EXPECT_EQ(st::pyobject_converters(), &table);
  st::set_pyobject_converters(nullptr);
  EXPECT_EQ(st::pyobject_converters(), nullptr);
}

}  // namespace
