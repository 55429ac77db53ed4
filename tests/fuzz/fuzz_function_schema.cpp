// libFuzzer target: the function-schema parser (st::FunctionSchema::parse
// and st::parseSchemaOrName). Any text either parses or throws st::Error;
// a parsed schema prints back (toString) to text that parses to an equal
// schema. Anything else (another exception type, a crash, a sanitizer
// report, a round trip that changes the schema) is a bug.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <st/core/error.h>
#include <st/dispatch/function_schema.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const st::FunctionSchema s = st::FunctionSchema::parse(text);
    const std::string printed = s.toString();
    st::FunctionSchema again;
    try {
      again = st::FunctionSchema::parse(printed);
    } catch (const st::Error& e) {
      std::fprintf(stderr, "round trip: '%s' printed as '%s', which does not parse: %s\n",
                   std::string(text).c_str(), printed.c_str(), e.what());
      std::abort();
    }
    if (!(again == s) || again.toString() != printed) {
      std::fprintf(stderr, "round trip: '%s' printed as '%s', which parses to '%s'\n",
                   std::string(text).c_str(), printed.c_str(), again.toString().c_str());
      std::abort();
    }
  } catch (const st::Error&) {
    // Rejected with the parser's error: the expected outcome for garbage.
  }
  try {
    (void)st::parseSchemaOrName(text);
  } catch (const st::Error&) {
  }
  return 0;
}
