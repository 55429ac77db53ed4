# The per-ISA variants of the core's vectorized loops (core/src/native/cpu:
# vec_kernels.h, vec_math.h, vec_reduce_kernels.h): one translation unit
# per family and instruction set, each with its own target flags, chosen
# at run time from the CPU's features. The library builds them, and so do
# the tests that check that the variants agree (the variants are internal
# symbols of the shared library), both through this function.
#
# -Wno-psabi: the vector helpers are internal (anonymous namespace), their
# ABI never crosses a translation unit. -fwrapv and -fno-math-errno for
# the elementwise families, as for the other arithmetic kernels
# (core/native/CMakeLists.txt); the reduction loops' integer lanes are
# unsigned.

# stabletorch_vec_variants(<out_var> [TARGET_DIRECTORY <target>]): sets
# <out_var> to the variants' sources and gives each its flags, in the
# directory of <target> when given (else the current directory).
function(stabletorch_vec_variants out_var)
  cmake_parse_arguments(ARG "" "TARGET_DIRECTORY" "" ${ARGN})
  set(flags_default -ffp-contract=off -Wno-psabi)
  set(flags_avx2 ${flags_default} -mavx2 -mfma)
  set(flags_avx512 ${flags_avx2} -mavx512f -mavx512vl -mavx512bw -mavx512dq)
  set(flags_avx512_256 ${flags_avx512})  # (the unit sets the width: vec_width.inc)
  set(where)
  if(ARG_TARGET_DIRECTORY)
    set(where TARGET_DIRECTORY ${ARG_TARGET_DIRECTORY})
  endif()
  set(files)
  foreach(family vec_kernels vec_math vec_reduce_kernels)
    set(isas default avx2 avx512 avx512_256)
    foreach(isa ${isas})
      set(f ${PROJECT_SOURCE_DIR}/core/src/native/cpu/${family}_${isa}.cpp)
      list(APPEND files ${f})
      set(flags ${flags_${isa}})
      if(NOT family STREQUAL "vec_reduce_kernels")
        list(APPEND flags -fwrapv -fno-math-errno)
      endif()
      set_source_files_properties(${f} ${where} PROPERTIES COMPILE_OPTIONS "${flags}")
    endforeach()
  endforeach()
  set(${out_var} ${files} PARENT_SCOPE)
endfunction()
