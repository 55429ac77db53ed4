// Fallbacks for AMD GPU builtins that older ROCm compilers lack. This SDK
// has no ROCm backend: the header exists so that code including it builds,
// and it defines nothing unless USE_ROCM is set.
#pragma once

#if defined(USE_ROCM)
#if !__has_builtin(__builtin_amdgcn_processor_is)
#define __builtin_amdgcn_processor_is(x) false
#endif
#if !__has_builtin(__builtin_amdgcn_is_invocable)
#define __builtin_amdgcn_is_invocable(x) (__has_builtin(x))
#endif
#endif
