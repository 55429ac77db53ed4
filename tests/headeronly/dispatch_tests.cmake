list(APPEND STABLETORCH_HEADERONLY_EXTRA_TESTS
  test_dispatch.cpp
  test_dispatch_v2.cpp
  test_tensor_accessor.cpp)
