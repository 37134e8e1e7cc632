// A CPU-bound test program for the end-to-end tests: burns a chosen number of iterations
// (real work, no sleep) and prints a chosen line, so two commands can do different amounts of
// work with identical output, or different output with the same work.
//   burn ITERATIONS [TEXT] [--crash]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: burn ITERATIONS [TEXT] [--crash]\n");
    return 2;
  }
  const std::uint64_t n = std::strtoull(argv[1], nullptr, 10);
  volatile std::uint64_t x = 88172645463325252ULL;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t v = x;
    v ^= v << 13;
    v ^= v >> 7;
    v ^= v << 17;
    x = v;
  }
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--crash") == 0) {
      std::fprintf(stderr, "burn: deliberate crash after %llu iterations\n", static_cast<unsigned long long>(n));
      std::abort();
    }
  std::printf("%s\n", argc > 2 && argv[2][0] != '-' ? argv[2] : "done");
  return 0;
}
