// `stabletorch inspect`: what a plugin file says about itself, read without
// running any of its code.
#pragma once

#include <ostream>
#include <string>

namespace st::cli {

struct InspectResult {
  bool readable = false;  // a well-formed shared object for this machine
  bool can_run = false;   // level and imports are satisfied by this core
};

// Prints the descriptor, the C-ABI symbols the plugin imports (each with the
// level that introduced it, and whether this core exports it) and a verdict.
InspectResult inspect_plugin(const std::string& path, std::ostream& out);

}  // namespace st::cli
