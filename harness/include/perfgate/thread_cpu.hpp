// This thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over the stretches of code a scenario times
// itself: only the handler or mapping under test, not the setup around it, and not other
// threads or the time the thread waits to be scheduled.
//
//   std::int64_t ns = 0;
//   for (rep...) xml = perfgate::add_thread_cpu(ns, [&] { return handle_report(contacts); });
//   report.metric("report_cpu_ms", perfgate::ns_to_ms(ns) / reps, "ms");
#pragma once

#include <time.h>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace perfgate {

inline std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Runs `work`, adds the CPU time this thread spent in it to `total_ns`, returns what `work`
// returns.
template <class F>
decltype(auto) add_thread_cpu(std::int64_t& total_ns, F&& work) {
  const std::int64_t start = thread_cpu_ns();
  if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
    std::forward<F>(work)();
    total_ns += thread_cpu_ns() - start;
  } else {
    decltype(auto) result = std::forward<F>(work)();
    total_ns += thread_cpu_ns() - start;
    return result;
  }
}

inline double ns_to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace perfgate
