/* The layout test program: hot_sum's result for N iterations (argv[1], default 1000000). */
#include <stdlib.h>

unsigned long hot_sum(unsigned long n, unsigned long x);
void print_digest(unsigned long n, unsigned long sum);

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000;
  print_digest(n, hot_sum(n, 88172645463325252ul));
  return 0;
}
