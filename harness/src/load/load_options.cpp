#include "load/load_options.hpp"

#include <sched.h>
#include <time.h>

#include <boost/asio/ip/address.hpp>
#include <cmath>
#include <stdexcept>

namespace perfgate::load {

void validate(const LoadOptions& o, const RequestSet& set) {
  auto bad = [](const std::string& m) { throw std::invalid_argument("load options: " + m); };
  if (set.paths.empty()) bad("the request set is empty");
  if (o.port == 0) bad("port must be set");
  if (o.connections < 1) bad("connections must be >= 1");
  if (o.max_requests == 0 && !(o.duration_s > 0)) bad("duration_s must be > 0 (or set max_requests)");
  if (!(o.rate_rps >= 0) || !std::isfinite(o.rate_rps)) bad("rate_rps must be >= 0 (0 = closed loop)");
  if (!(o.timeout_s > 0)) bad("timeout_s must be > 0");
  if (!(o.tick_us >= 0) || !(o.tick_us <= 1e6)) bad("tick_us must be between 0 (wake per request) and 1e6");
  if (!(o.warmup_s >= 0)) bad("warmup_s must be >= 0");
  for (int cpu : o.cpus)
    if (cpu < 0 || cpu >= CPU_SETSIZE) bad("cpu " + std::to_string(cpu) + " is out of range");
  boost::system::error_code ec;
  boost::asio::ip::make_address(o.host, ec);
  if (ec) bad("host '" + o.host + "' is not an IP address literal");
}

void pin_this_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    throw std::invalid_argument("load options: cannot pin the load thread to the requested cpus (not allowed here?)");
}

void sleep_until(std::chrono::steady_clock::time_point t) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  const timespec until{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) != 0) {
    // EINTR: a signal woke the thread early; sleep the rest.
  }
}

}  // namespace perfgate::load
