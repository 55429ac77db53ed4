# Test sources for the header-only numeric types (Half, BFloat16, Float8_*,
# complex, bits/qint). Included from tests/headeronly/CMakeLists.txt, which
# builds them into the test_headeronly executable.
set(STABLETORCH_HEADERONLY_NUMERIC_TESTS
  test_half.cpp
  test_bfloat16.cpp
  test_float8.cpp
  test_arithmetic_via_float.cpp
  test_complex.cpp
  test_bits_and_qint.cpp
)
