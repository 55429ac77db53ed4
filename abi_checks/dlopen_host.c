/* A bare host for check 9: links nothing of stabletorch, dlopens one
 * library by path with default glibc settings and calls one of its
 * functions that takes no argument and returns an integer. A library that
 * needs room in the static TLS block fails right here, as it would when a
 * Python module, ctypes or a plugin host loads it late.
 *
 *   dlopen_host LIBRARY SYMBOL      prints "SYMBOL() = VALUE", exit 0
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIBRARY SYMBOL\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen(%s) failed: %s\n", argv[1], dlerror());
    return 1;
  }
  void* sym = dlsym(lib, argv[2]);
  if (sym == NULL) {
    fprintf(stderr, "dlsym(%s, %s) failed: %s\n", argv[1], argv[2], dlerror());
    return 1;
  }
  /* Through a function pointer of the right shape: every symbol the check
   * names takes nothing and returns an integer of at most 64 bits. */
  uint64_t (*fn)(void) = NULL;
  *(void**)&fn = sym;
  printf("%s() = %" PRIu64 "\n", argv[2], fn());
  return 0;
}
