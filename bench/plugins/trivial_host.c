/* Reference for bench_process_startup: a process that links nothing of
 * stabletorch. */
int main(void) { return 0; }
