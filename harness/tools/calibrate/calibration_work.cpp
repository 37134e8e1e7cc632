// The programs `perfgate calibrate` measures: a known amount of one kind of work, so that
// "+x% work" is exact (N is a count, not a duration) and two runs with different N print the
// same line (the A/B pair passes the equivalence gate).
//   calibration_work cpu|syscall|memory N [--self-time FILE]
// cpu: N rounds of a xorshift step (registers only). syscall: N one-byte writes to /dev/null.
// memory: N MiB allocated, every page written, then read back in a scattered order.
// --self-time appends the program's own wall time in ms (from main to exit) to FILE, so the
// harness's perturbation of wall time can be measured against it.
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

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  if (argc < 3) {
    std::fprintf(stderr, "usage: calibration_work cpu|syscall|memory N [--self-time FILE]\n");
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
