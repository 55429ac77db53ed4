// A test hook into Dispatcher::findSchemaOrThrow's "did you mean"
// suggestions (Note [Bounded operator suggestions] in dispatcher.cpp).
#pragma once

#include <st/core/export.h>

namespace st::detail {

// Called each time findSchemaOrThrow computes suggestions, after it has
// released the dispatcher mutex; null for none. For tests only: not to be
// changed while lookups run on other threads.
ST_API void setSuggestionHookForTesting(void (*hook)());

}  // namespace st::detail
