# Installs the SDK: headers of headeronly, c_api and stable (plus the core's
# headers for host applications), the libraries, the CMake package with
# SameMajorVersion compatibility, and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The stable-ABI level, read from the one header that defines it.
file(STRINGS "${PROJECT_SOURCE_DIR}/headeronly/include/torch/headeronly/version.h"
  _abi_lines REGEX "^#define TORCH_VERSION_(MAJOR|MINOR|PATCH) ")
foreach(line IN LISTS _abi_lines)
  if(line MATCHES "TORCH_VERSION_(MAJOR|MINOR|PATCH) ([0-9]+)")
    set(_abi_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endif()
endforeach()
set(STABLETORCH_TORCH_ABI_LEVEL "${_abi_MAJOR}.${_abi_MINOR}.${_abi_PATCH}")

install(DIRECTORY
    "${PROJECT_SOURCE_DIR}/headeronly/include/"
    "${PROJECT_SOURCE_DIR}/c_api/include/"
    "${PROJECT_SOURCE_DIR}/stable/include/"
    "${PROJECT_SOURCE_DIR}/core/include/"
    "${STABLETORCH_GENERATED_INCLUDE_DIR}/"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

set_target_properties(stabletorch_headeronly PROPERTIES EXPORT_NAME headeronly)
set_target_properties(stabletorch_c_headers PROPERTIES EXPORT_NAME c_headers)
set_target_properties(stabletorch_c PROPERTIES EXPORT_NAME c_api)
set_target_properties(stabletorch_stable PROPERTIES EXPORT_NAME sdk)
set_target_properties(stabletorch_core PROPERTIES EXPORT_NAME core)

install(TARGETS stabletorch_headeronly stabletorch_c_headers stabletorch_c
                stabletorch_stable stabletorch_core
  EXPORT StableTorchTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The CUDA backend module: beside the core, which loads it on first use
# (nothing links it, so it is not in the export set).
if(TARGET stabletorch_cuda)
  install(TARGETS stabletorch_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/StableTorch)
install(EXPORT StableTorchTargets NAMESPACE StableTorch:: DESTINATION ${_cmake_dir})
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/StableTorchConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/StableTorchConfig.cmake"
  INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/StableTorchConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
    "${PROJECT_BINARY_DIR}/StableTorchConfig.cmake"
    "${PROJECT_BINARY_DIR}/StableTorchConfigVersion.cmake"
    "${PROJECT_SOURCE_DIR}/cmake/StableTorchExtension.cmake"
  DESTINATION ${_cmake_dir})

configure_file("${PROJECT_SOURCE_DIR}/cmake/stabletorch.pc.in"
  "${PROJECT_BINARY_DIR}/stabletorch.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/stabletorch.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
