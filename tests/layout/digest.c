/* A second object in the program's .text (main itself goes to .text.startup), so the order the
   linker launcher gives the objects moves hot_sum. */
#include <stdio.h>

__attribute__((noinline)) void print_digest(unsigned long n, unsigned long sum) {
  unsigned long h = 1469598103934665603ul;
  for (int i = 0; i < 8; i++) {
    h ^= (sum >> (8 * i)) & 0xff;
    h *= 1099511628211ul;
  }
  printf("n=%lu sum=%lu digest=%016lx\n", n, sum, h);
}
