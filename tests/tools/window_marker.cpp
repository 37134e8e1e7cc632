// A program that marks a window (perfgate/outside_window.hpp) around known work, for the tests
// of run/window_marks: `window_marker ok SPIN_MS SLEEP_MS` spins SPIN_MS of its CPU time before the
// window, then inside "work" sleeps SLEEP_MS and spins SPIN_MS, then spins SPIN_MS after it;
// `window_marker unclosed` opens "work" and exits; `window_marker twice` opens it twice.
#include <time.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "perfgate/outside_window.hpp"

namespace {
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// `ms` of this thread's CPU, however busy the machine is.
void spin(double ms) {
  const double end = thread_cpu_ms() + ms;
  volatile unsigned long x = 0;
  while (thread_cpu_ms() < end) x = x + 1;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "ok" && argc == 4) {
    const double spin_ms = std::atof(argv[2]), sleep_ms = std::atof(argv[3]);
    spin(spin_ms);
    {
      perfgate::OutsideWindow w("work");
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sleep_ms));
      spin(spin_ms);
    }
    spin(spin_ms);
    return 0;
  }
  if (mode == "unclosed") {
    perfgate_window_begin("work");
    return 0;
  }
  if (mode == "twice") {
    perfgate_window_begin("work");
    perfgate_window_begin("work");
    return 0;
  }
  return 2;
}
