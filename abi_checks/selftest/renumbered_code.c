/*
 * Preloaded (LD_PRELOAD) in front of libstabletorch by the self-test of
 * check 5: a "new core" that renumbered MemoryFormat::ChannelsLast. The old
 * compatibility plugin must notice and the host must fail, naming it.
 */
#include <stdint.h>

__attribute__((__visibility__("default"))) int32_t aoti_torch_memory_format_channels_last(void) {
  return 3;
}
