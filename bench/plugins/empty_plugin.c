/* The same-run reference of bench_plugin_loading: a shared object with no
 * registrations, opened and closed with plain dlopen/dlclose. */
int bench_empty_plugin_marker(void);
__attribute__((visibility("default"))) int bench_empty_plugin_marker(void) { return 1; }
