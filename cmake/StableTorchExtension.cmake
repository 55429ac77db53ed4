# stabletorch_add_extension(<name> SOURCES <src>... [TARGET_VERSION <v>]
#                           [STABLETORCH_EXTENSIONS])
#
# Builds an operator plugin (a MODULE library loaded with dlopen) against
# the stable SDK only: headeronly + C ABI headers + stable C++ headers,
# linking nothing but libstabletorch. Sources ending in .cu are compiled
# with CUDA (the calling project must have enabled the CUDA language).
#
# TARGET_VERSION sets TORCH_TARGET_VERSION (e.g. 0x0209000000000000ULL):
# the plugin may then use, and imports, only what that stable-ABI level has.
#
# STABLETORCH_EXTENSIONS opts in to the stabletorch additions PyTorch's
# stable headers lack (torch::stable::Scalar, add, mul, ...): such a plugin
# runs on stabletorch only. Without it the plugin's source compiles against
# PyTorch's headers too, and its binary runs on PyTorch's runtime.
#
# Used both by the installed package (find_package(StableTorch)) and in
# this source tree for test plugins, so both build plugins the same way.
function(stabletorch_add_extension name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STABLETORCH_EXTENSIONS" "TARGET_VERSION" "SOURCES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "stabletorch_add_extension(${name}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stabletorch_add_extension(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(src IN LISTS ARG_SOURCES)
    if(src MATCHES "\\.cu$" AND NOT CMAKE_CUDA_COMPILER)
      message(FATAL_ERROR "stabletorch_add_extension(${name}): ${src} needs CUDA; call enable_language(CUDA) first")
    endif()
  endforeach()

  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE StableTorch::sdk)
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
  # Keep static dependencies' symbols private and refuse unresolved imports
  # at link time rather than at dlopen time.
  target_link_options(${name} PRIVATE "LINKER:--exclude-libs,ALL" "LINKER:--no-undefined")
  if(DEFINED ARG_TARGET_VERSION)
    target_compile_definitions(${name} PRIVATE TORCH_TARGET_VERSION=${ARG_TARGET_VERSION})
  endif()
  if(ARG_STABLETORCH_EXTENSIONS)
    target_compile_definitions(${name} PRIVATE STABLETORCH_EXTENSIONS=1)
  endif()
endfunction()
