// Portable spellings of [[deprecated]]: C10_DEPRECATED,
// C10_DEPRECATED_MESSAGE(msg) for declarations, and
// C10_DEFINE_DEPRECATED_USING(Name, Type) for a deprecated alias.
// Header-only: depends on nothing.
#pragma once

#define C10_DEPRECATED [[deprecated]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]

// nvcc rejects the attribute on alias declarations, so there the alias is
// declared without it.
#if defined(__CUDACC__)
#define C10_DEFINE_DEPRECATED_USING(TypeName, TypeThingy) using TypeName = TypeThingy;
#else
#define C10_DEFINE_DEPRECATED_USING(TypeName, TypeThingy) \
  using TypeName [[deprecated]] = TypeThingy;
#endif
