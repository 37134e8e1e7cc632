#include "herd.hpp"

#include <sys/resource.h>

#include <chrono>
#include <latch>
#include <thread>

namespace auth_herd {
namespace {
double process_cpu_ms() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto ms = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) * 1e3 + static_cast<double>(tv.tv_usec) / 1e3;
  };
  return ms(ru.ru_utime) + ms(ru.ru_stime);
}
}  // namespace

HerdResult run_herd(Authenticator& auth, const std::string& user, const std::string& password, int callers,
                    bool early_clock) {
  using Clock = std::chrono::steady_clock;
  HerdResult result;
  result.answers.resize(static_cast<std::size_t>(callers));
  std::latch ready(callers), go(1), entered(callers);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(callers));
  for (int i = 0; i < callers; ++i) {
    threads.emplace_back([&, i] {
      ready.count_down();
      go.wait();
      entered.count_down();
      Answer& a = result.answers[static_cast<std::size_t>(i)];
      try {
        a.user_id = auth.authenticate(user, password);
      } catch (const std::exception& e) {
        a.error = e.what();
      }
    });
  }
  ready.wait();
  const double cpu0 = process_cpu_ms();
  const auto t0 = Clock::now();
  auto stop_clocks = [&] {
    result.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    result.cpu_ms = process_cpu_ms() - cpu0;
  };
  go.count_down();
  if (early_clock) {  // the lie: the herd dispatched is taken for the herd answered
    entered.wait();
    stop_clocks();
  }
  for (auto& t : threads) t.join();
  if (!early_clock) stop_clocks();
  return result;
}

std::string describe(int caller, const Answer& a) {
  std::string s = "caller " + std::to_string(caller) + " ";
  if (!a.error.empty()) return s + "error=" + a.error;
  return s + (a.user_id ? "user_id=" + std::to_string(*a.user_id) : "denied");
}

}  // namespace auth_herd
