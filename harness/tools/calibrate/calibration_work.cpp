// A known amount of one kind of work, so that "+x% work" is exact (N is a count, not a
// duration) and two runs with different N print the same line (the A/B pair passes the
// equivalence gate). One program serves `perfgate calibrate` (staged as calibration_work) and
// the end-to-end tests (staged as tests/tools/burn):
//   calibration_work cpu|syscall|memory N [--self-time FILE]
//   burn N [TEXT] [--crash]
// cpu: N rounds of a xorshift step (registers only). syscall: N one-byte writes to /dev/null.
// memory: N MiB allocated, every page written, then read back in a scattered order.
// --self-time appends the program's own wall time in ms (from main to exit) to FILE, so the
// harness's perturbation of wall time can be measured against it.
// The second form is cpu work that prints TEXT (default "done"), so two commands can do
// different amounts of work with the same output or the same work with different output;
// --crash aborts after the work (a sample that dies by a signal).
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::uint64_t cpu_work(std::uint64_t n) {
  volatile std::uint64_t x = 88172645463325252ULL;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t v = x;
    v ^= v << 13;
    v ^= v >> 7;
    v ^= v << 17;
    x = v;
  }
  return x;
}

std::uint64_t syscall_work(std::uint64_t n) {
  const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    std::perror("calibration_work: /dev/null");
    std::exit(1);
  }
  const char byte = 'x';
  std::uint64_t written = 0;
  for (std::uint64_t i = 0; i < n; ++i) written += static_cast<std::uint64_t>(::write(fd, &byte, 1) == 1);
  ::close(fd);
  return written;
}

std::uint64_t memory_work(std::uint64_t mib) {
  const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
  std::vector<unsigned char> buf(bytes);
  for (std::size_t i = 0; i < bytes; i += 4096) buf[i] = static_cast<unsigned char>(i >> 12);
  // A scattered walk over cache lines: a stride coprime with the line count visits each once.
  const std::size_t lines = bytes / 64, stride = 4099;
  std::uint64_t sum = 0;
  for (std::size_t k = 0, at = 0; k < lines; ++k, at = (at + stride) % lines) sum += buf[at * 64];
  return sum;
}

bool is_count(const char* s) { return *s && std::strspn(s, "0123456789") == std::strlen(s); }

// burn N [TEXT] [--crash]
int burn(int argc, char** argv) {
  const std::uint64_t n = std::strtoull(argv[1], nullptr, 10);
  cpu_work(n);
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--crash") == 0) {
      std::fprintf(stderr, "burn: deliberate crash after %llu iterations\n", static_cast<unsigned long long>(n));
      std::abort();
    }
  std::printf("%s\n", argc > 2 && argv[2][0] != '-' ? argv[2] : "done");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  if (argc >= 2 && is_count(argv[1])) return burn(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: calibration_work cpu|syscall|memory N [--self-time FILE]\n"
                 "       burn N [TEXT] [--crash]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const std::uint64_t n = std::strtoull(argv[2], nullptr, 10);
  const char* self_time = argc >= 5 && std::strcmp(argv[3], "--self-time") == 0 ? argv[4] : nullptr;
  std::uint64_t result = 0;
  if (mode == "cpu")
    result = cpu_work(n);
  else if (mode == "syscall")
    result = syscall_work(n);
  else if (mode == "memory")
    result = memory_work(n);
  else {
    std::fprintf(stderr, "calibration_work: unknown mode '%s' (cpu, syscall or memory)\n", mode.c_str());
    return 2;
  }
  // The result only keeps the work from being optimised away; stdout must not depend on N.
  std::printf("calibration %s%s\n", mode.c_str(), result == 0xdeadbeefULL ? " " : "");
  std::fflush(stdout);
  if (self_time) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (FILE* f = std::fopen(self_time, "a")) {
      std::fprintf(f, "%.4f\n", ms);
      std::fclose(f);
    }
  }
  return 0;
}
