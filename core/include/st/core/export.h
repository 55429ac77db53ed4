// ST_API marks the core's public C++ API for export from libstabletorch_core.
// Everything else in the library is hidden (the build's default), so the
// exported surface is exactly what carries this macro.
#pragma once

#if defined(_WIN32)
#define ST_API __declspec(dllexport)
#else
#define ST_API __attribute__((visibility("default")))
#endif
