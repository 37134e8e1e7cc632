#include "run/metric_specs.hpp"

#include <stdexcept>

namespace perfgate::run {
namespace {

// Per-phase and per-server figures are declared by their suffix (startup_server_cpu_ms, ...).
const MetricSpec kSpecs[] = {
    // time and CPU: host-dependent
    {"wall_ms", "ms", Better::Lower, false},
    {"cpu_ms", "ms", Better::Lower, false},
    {"user_ms", "ms", Better::Lower, false},
    {"sys_ms", "ms", Better::Lower, false},
    {"cpu_wait_ms", "ms", Better::Lower, false},
    {"server_cpu_ms", "ms", Better::Lower, false},
    {"total_cpu_ms", "ms", Better::Lower, false},
    {"startup_ms", "ms", Better::Lower, false},
    {"server_cpu_us_per_request", "us", Better::Lower, false},
    {"rps", "req/s", Better::Higher, false},
    {"latency_p50_ms", "ms", Better::Lower, false},
    {"latency_p99_ms", "ms", Better::Lower, false},
    {"server_mem_peak_mib", "MiB", Better::Lower, false},
    // memory peaks: the page cache, the allocator's arenas and the kernel's accounting move them
    {"peak_rss_kib", "KiB", Better::Lower, false},
    {"maxrss_kib", "KiB", Better::Lower, false},
    // scheduling: the machine's, not the program's
    {"ctx_voluntary", "count", Better::Lower, false},
    {"ctx_involuntary", "count", Better::Lower, false},
    // a service window's answers depend on how fast the server is
    {"errors", "count", Better::Lower, false},
    {"responses", "count", Better::Higher, false},
    {"hit_ratio", "ratio", Better::Higher, false},
    // the program's own read/write calls (/proc/<pid>/io): the work itself
    {"syscr", "count", Better::Lower, true},
    {"syscw", "count", Better::Lower, true},
    {"syscalls", "count", Better::Lower, true},
    // its bytes through them include what it prints, and a report line of times varies in
    // length from run to run (dto_mapping's wchar_kib: 3010.2334-3010.2422 over 12 rounds)
    {"rchar_kib", "KiB", Better::Lower, false},
    {"wchar_kib", "KiB", Better::Lower, false},
    // the counting run's allocations (preload/libperfgate_alloc)
    {"allocs", "count", Better::Lower, true},
    {"large_allocs", "count", Better::Lower, true},  // of 1 MiB or more
    {"alloc_bytes", "bytes", Better::Lower, true},
    {"frees", "count", Better::Lower, true},
    {"peak_heap_bytes", "bytes", Better::Lower, true},
    {"live_heap_bytes", "bytes", Better::Lower, true},
    // cachegrind's Ir: host-dependent (CPU-specific string functions)
    {"instructions", "count", Better::Lower, false},
};

const MetricSpec kPhaseServerSpecs[] = {
    {"_server_cpu_ms", "ms", Better::Lower, false},
    {"_server_user_ms", "ms", Better::Lower, false},
    {"_server_sys_ms", "ms", Better::Lower, false},
    {"_server_rss_mean_mib", "MiB", Better::Lower, false},
    {"_server_rss_peak_mib", "MiB", Better::Lower, false},
    {"_server_mem_mean_mib", "MiB", Better::Lower, false},
    {"_server_mem_peak_mib", "MiB", Better::Lower, false},
    {"_wall_ms", "ms", Better::Lower, false},
    {"_client_cpu_ms", "ms", Better::Lower, false},
    // a window the program marked (run/window_marks.hpp), read by perfgate: NAME_window_wall_ms too
    {"_window_cpu_ms", "ms", Better::Lower, false},
    // a service's start-up reads, spawn to listen (/proc/PID/io): the work done before any request
    {"_server_syscr", "count", Better::Lower, true},
    {"_server_rchar_kib", "KiB", Better::Lower, false},
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const MetricSpec* harness_metric(const std::string& name) {
  for (const auto& s : kSpecs)
    if (name == s.name) return &s;
  for (const auto& s : kPhaseServerSpecs)
    if (ends_with(name, s.name)) return &s;
  return nullptr;
}

MetricValue measured(const std::string& name, double value, const std::string& source) {
  const MetricSpec* s = harness_metric(name);
  // A figure perfgate takes without a declaration would be compared without knowing what it is.
  if (!s) throw std::logic_error("metric " + name + " is measured but not declared in run/metric_specs.cpp");
  MetricValue v{value, s->unit, s->better, source};
  v.exact = s->exact;
  return v;
}

}  // namespace perfgate::run
