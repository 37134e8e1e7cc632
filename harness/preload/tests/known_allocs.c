/* Allocates a known number of times inside the counting window, so `perfgate ab --allocs`
 * can be checked to report exactly that: known_allocs N [LARGE] prints one line and makes N
 * mallocs of 100 bytes (kept live until the window closes) and LARGE of 2 MiB, nothing else. */
#include <stdio.h>
#include <stdlib.h>

#include "perfgate/alloc_window.hpp"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: known_allocs N [LARGE]\n");
    return 2;
  }
  const long n = strtol(argv[1], NULL, 10), large = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
  void** blocks = malloc(sizeof(void*) * (size_t)n);
  if (!blocks) return 1;
  perfgate_alloc_window_start();
  for (long i = 0; i < n; ++i) {
    blocks[i] = malloc(100);
    if (!blocks[i]) return 1;
    ((volatile char*)blocks[i])[0] = 1;
  }
  for (long i = 0; i < n; ++i) free(blocks[i]);
  for (long i = 0; i < large; ++i) {
    char* big = malloc((size_t)2 << 20);
    if (!big) return 1;
    big[0] = 1;
    free(big);
  }
  perfgate_alloc_window_stop();
  free(blocks);
  /* Same line for any N, so a pair with different N passes the equivalence gate. */
  printf("done\n");
  return 0;
}
