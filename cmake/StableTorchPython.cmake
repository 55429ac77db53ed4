# Finds what the Python package needs (python/CMakeLists.txt): the Python
# interpreter with its development headers, and nanobind. Sets
# STABLETORCH_PYTHON_AVAILABLE. Prefers the build-local venv that
# tools/setup_python.sh makes (build/venv), so a plain configure after the
# setup script builds the package; Python_EXECUTABLE overrides it (as
# scikit-build-core does).
set(STABLETORCH_PYTHON_AVAILABLE OFF)
if(NOT Python_EXECUTABLE AND EXISTS "${PROJECT_SOURCE_DIR}/build/venv/bin/python")
  set(Python_EXECUTABLE "${PROJECT_SOURCE_DIR}/build/venv/bin/python")
endif()
find_package(Python 3.8 COMPONENTS Interpreter Development.Module QUIET)
if(Python_FOUND)
  execute_process(COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
    OUTPUT_VARIABLE _st_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _st_nanobind_rc ERROR_QUIET)
  if(_st_nanobind_rc EQUAL 0)
    find_package(nanobind CONFIG QUIET PATHS "${_st_nanobind_dir}" NO_DEFAULT_PATH)
  endif()
  if(nanobind_FOUND)
    set(STABLETORCH_PYTHON_AVAILABLE ON)
  endif()
endif()
if(STABLETORCH_PYTHON_AVAILABLE)
  message(STATUS "stabletorch: Python package builds with ${Python_EXECUTABLE} and nanobind ${nanobind_VERSION}")
else()
  message(STATUS "stabletorch: Python package not built (needs Python dev headers and nanobind: tools/setup_python.sh)")
endif()
