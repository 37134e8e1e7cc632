/* The hot loop whose placement the layout launchers move (docs/layout.md): a tight loop of
   dependent shifts and xors that neither vectorises nor folds away. */
#ifndef PAD
#define PAD 0
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

#if PAD > 0
/* Issue 39's experiment: an unused function of PAD bytes in front of the hot one moves the
   loop without changing anything it computes (scripts/layout-placements.sh --pad). */
__attribute__((used, noinline)) void pad_bytes(void) { __asm__ volatile(".skip " STR(PAD) ", 0x90"); }
#endif

__attribute__((noinline)) unsigned long hot_sum(unsigned long n, unsigned long x) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s += x & 0xff;
  }
  return s;
}
