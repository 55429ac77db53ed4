// Symbol visibility macros of PyTorch's libraries (C10_API, TORCH_API, ...).
// Extensions sometimes spell them on their own declarations; built against
// this SDK they mark symbols exported from the extension itself, as they do
// for a library that is not one of PyTorch's own.
// Header-only: depends on nothing.
#pragma once

#ifndef C10_USING_CUSTOM_GENERATED_MACROS
#include <torch/headeronly/macros/cmake_macros.h>
#endif

#ifdef _WIN32
#define C10_HIDDEN
#if defined(C10_BUILD_SHARED_LIBS)
#define C10_EXPORT __declspec(dllexport)
#define C10_IMPORT __declspec(dllimport)
#else
#define C10_EXPORT
#define C10_IMPORT
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define C10_EXPORT __attribute__((__visibility__("default")))
#define C10_HIDDEN __attribute__((__visibility__("hidden")))
#define C10_IMPORT C10_EXPORT
#else
#define C10_EXPORT
#define C10_HIDDEN
#define C10_IMPORT
#endif

// Enumerations need the attribute only where the compiler warns about
// exporting them (clang on Windows); elsewhere it is empty.
#define C10_API_ENUM

// Code compiled against these headers is never one of PyTorch's own
// libraries, so each *_API imports (the BUILD_MAIN_LIB / *_BUILD_* switches
// of PyTorch's build are honoured for completeness).
#ifdef C10_BUILD_MAIN_LIB
#define C10_API C10_EXPORT
#else
#define C10_API C10_IMPORT
#endif

#if defined(CAFFE2_BUILD_MAIN_LIB) || defined(TORCH_BUILD_MAIN_LIB)
#define TORCH_API C10_EXPORT
#else
#define TORCH_API C10_IMPORT
#endif

#if defined(TORCH_CUDA_CU_BUILD_MAIN_LIB)
#define TORCH_CUDA_CU_API C10_EXPORT
#else
#define TORCH_CUDA_CU_API C10_IMPORT
#endif

#if defined(TORCH_CUDA_CPP_BUILD_MAIN_LIB)
#define TORCH_CUDA_CPP_API C10_EXPORT
#else
#define TORCH_CUDA_CPP_API C10_IMPORT
#endif

#if defined(TORCH_XPU_BUILD_MAIN_LIB)
#define TORCH_XPU_API C10_EXPORT
#else
#define TORCH_XPU_API C10_IMPORT
#endif
