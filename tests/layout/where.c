/* Where a run puts its stack, heap and code, each modulo 4096 (scripts/layout-placements.sh
   --runtime, docs/layout.md "At run time"): which of them the kernel already varies per run. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int local;
  void *small = malloc(64), *big = malloc(1 << 20); /* big: glibc serves it by mmap */
  printf("stack %4lu  heap %4lu  mmap %4lu  code %4lu\n", (unsigned long)&local % 4096, (unsigned long)small % 4096,
         (unsigned long)big % 4096, (unsigned long)&main % 4096);
  free(big);
  free(small);
  return 0;
}
