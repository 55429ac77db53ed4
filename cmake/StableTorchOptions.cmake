# Project-wide compile settings. Every target gets them through the
# stabletorch_warnings interface target rather than global flags, so that
# consumers of the installed SDK never inherit our warning policy.
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

# Hidden visibility by default: only what is marked for export leaves a
# shared library.
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_CUDA_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

add_library(stabletorch_warnings INTERFACE)
target_compile_options(stabletorch_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra>
  $<$<AND:$<COMPILE_LANGUAGE:C,CXX>,$<BOOL:${STABLETORCH_WERROR}>>:-Werror>)

# TLS descriptors make every dynamic-model thread-local access one call
# that returns an offset, instead of a call to __tls_get_addr. The project
# uses no initial-exec TLS, so its libraries load with dlopen into any
# process (Note [Fast thread-local access], c_api/src/handle_registry.h).
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag(-mtls-dialect=gnu2 STABLETORCH_HAVE_TLS_DESCRIPTORS)
if(STABLETORCH_HAVE_TLS_DESCRIPTORS)
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-mtls-dialect=gnu2>)
endif()

# Installed binaries find the installed libraries next to them.
include(GNUInstallDirs)
set(CMAKE_INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
