#include "run/sample.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/errors.hpp"
#include "run/metric_specs.hpp"
#include "run/not_equivalent.hpp"

namespace perfgate::run {

json summarise_steal(const std::vector<Sample>& samples, const std::string& variant) {
  std::vector<double> wall, steal, irq;
  int flagged = 0;
  bool every_wall = true;  // service samples have no wall_ms: steal is summarised, not set against it
  for (const auto& s : samples) {
    if (s.warmup || s.variant != variant || !s.steal_ms) continue;
    auto w = s.metrics.find("wall_ms");
    if (w == s.metrics.end())
      every_wall = false;
    else
      wall.push_back(w->second.value);
    steal.push_back(*s.steal_ms);
    irq.push_back(s.irq_ms.value_or(0));
    flagged += s.steal_flagged ? 1 : 0;
  }
  const std::size_t n = steal.size();
  if (n == 0) return {{"samples", 0}};
  auto mean = [](const std::vector<double>& v) {
    double t = 0;
    for (double x : v) t += x;
    return t / static_cast<double>(v.size());
  };
  auto variance = [&](const std::vector<double>& v) {
    if (v.size() < 2) return 0.0;
    const double m = mean(v);
    double t = 0;
    for (double x : v) t += (x - m) * (x - m);
    return t / static_cast<double>(v.size() - 1);
  };
  json out = {{"samples", n},
              {"steal_ms_mean", mean(steal)},
              {"steal_ms_max", *std::max_element(steal.begin(), steal.end())},
              {"irq_ms_mean", mean(irq)},
              {"flagged_samples", flagged},
              {"flag_share", kStealFlagShare}};
  if (!every_wall) return out;
  // The one definition of "steal explains X% of the wall variance" (the report prints this figure):
  // how much of the variance is left once each sample's steal is taken off its wall time. A ms
  // the hypervisor takes is a ms of wall, so the slope is known to be 1; a correlation (Pearson
  // r², which the report once computed) fits any slope and says 100% when 0.1 ms of steal merely
  // moves with 100 ms of wall swings caused by something else — steal would explain nothing there.
  std::vector<double> wall_less_steal(n);
  for (std::size_t i = 0; i < n; ++i) wall_less_steal[i] = wall[i] - steal[i];
  const double var_wall = variance(wall);
  const double explained = var_wall > 0 ? 1.0 - variance(wall_less_steal) / var_wall : 0.0;
  out["wall_variance_explained_by_steal"] = std::min(1.0, std::max(0.0, explained));
  return out;
}

StealSpan::StealSpan(std::vector<int> cpus)
    : cpus_(std::move(cpus)), start_(measure::read_proc_stat()), t0_(std::chrono::steady_clock::now()) {}

void StealSpan::record(Sample& s) const {
  const auto end = measure::read_proc_stat();
  if (start_.empty() || end.empty()) return;
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  const auto loss = measure::cpu_loss(start_, end, cpus_, ::sysconf(_SC_CLK_TCK));
  s.steal_ms = loss.steal_ms;
  s.irq_ms = loss.irq_ms;
  s.steal_flagged = wall_ms > 0 && loss.steal_ms > kStealFlagShare * wall_ms;
}

namespace {
double ms(const timeval& tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; }
}  // namespace

void add_outside_metrics(Sample& s, const ChildResult& r) {
  auto put = [&](const std::string& name, double v, const std::string& source) {
    s.metrics[name] = measured(name, v, source);
  };
  put("wall_ms", r.wall_ms, "monotonic-clock");
  // The CPU window is the wall window: from exec to exit. What the child spent before its exec
  // (creation, joining cgroups, pinning: system time, mostly) is ours, not the program's.
  auto cpu = [&](double user, double sys, const std::string& source) {
    const double pre = r.pre_exec_cpu_ms;
    const double sys_after = std::max(0.0, sys - pre), user_after = std::max(0.0, user - std::max(0.0, pre - sys));
    put("cpu_ms", user_after + sys_after, source);
    put("user_ms", user_after, source);
    put("sys_ms", sys_after, source);
  };
  if (r.cgroup_cpu)
    cpu(r.cgroup_cpu->user_usec / 1e3, r.cgroup_cpu->system_usec / 1e3, r.cpu_source);
  else
    cpu(ms(r.usage.ru_utime), ms(r.usage.ru_stime), "rusage");
  if (r.cgroup_memory_peak)
    put("peak_rss_kib", static_cast<double>(*r.cgroup_memory_peak) / 1024.0, r.memory_source);
  else
    put("peak_rss_kib", static_cast<double>(r.usage.ru_maxrss), "rusage");
  put("maxrss_kib", static_cast<double>(r.usage.ru_maxrss), "rusage");
  if (r.io) {
    put("syscr", static_cast<double>(r.io->syscr), "proc-io");
    put("syscw", static_cast<double>(r.io->syscw), "proc-io");
    put("syscalls", static_cast<double>(r.io->syscr + r.io->syscw), "proc-io");
    put("rchar_kib", static_cast<double>(r.io->rchar) / 1024.0, "proc-io");
    put("wchar_kib", static_cast<double>(r.io->wchar) / 1024.0, "proc-io");
  }
  for (const auto& [name, w] : r.windows) {
    put(name + "_window_wall_ms", w.wall_ms, "window-marks: monotonic-clock");
    if (w.cpu_ms) put(name + "_window_cpu_ms", *w.cpu_ms, "window-marks: " + r.cpu_source);
  }
  put("ctx_voluntary", static_cast<double>(r.usage.ru_nvcsw), "rusage");
  put("ctx_involuntary", static_cast<double>(r.usage.ru_nivcsw), "rusage");
  s.steal_ms = r.steal_ms;
  s.irq_ms = r.irq_ms;
  s.steal_flagged = r.steal_ms && r.wall_ms > 0 && *r.steal_ms > kStealFlagShare * r.wall_ms;
}

void parse_program_report(Sample& s, const std::string& line, const std::string& program) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error&) {
    throw RunError(program + " did not print its JSON report as the last stdout line (got: '" + line.substr(0, 200) +
                   "')");
  }
  // A program that found its own answer wrong says so instead of failing: exit 3, never 4,
  // whatever else its line lacks.
  if (auto reason = reported_divergence(j)) {
    s.divergence = *reason;
    if (!j.contains("metrics") || !j["metrics"].is_object()) return;
  }
  if (!j.is_object() || !j.contains("metrics") || !j["metrics"].is_object())
    throw RunError(program + ": the last stdout line has no \"metrics\" object (see docs/scenario-contract.md)");
  s.digest = j.value("digest", "");
  for (const auto& [name, m] : j["metrics"].items()) {
    // What perfgate measured outside the program is not the program's to say.
    if (const auto ours = s.metrics.find(name); ours != s.metrics.end() && ours->second.source != "program")
      throw RunError(program + ": metrics." + name + " is measured by perfgate (" + ours->second.source +
                     "); a program may not report it");
    if (!m.is_object() || !m.contains("value") || !m["value"].is_number())
      throw RunError(program + ": metrics." + name + ".value must be a number");
    if (m.contains("exact") && !m["exact"].is_boolean())
      throw RunError(program + ": metrics." + name + ".exact must be true or false");
    Better better = Better::Lower;
    if (m.contains("better")) {
      const auto named = m["better"].is_string() ? from_name<Better>(m["better"].get<std::string>()) : std::nullopt;
      if (!named) throw RunError(program + ": metrics." + name + ".better must be \"lower\" or \"higher\"");
      better = *named;
    }
    MetricValue v{m["value"].get<double>(), m.value("unit", ""), better, "program"};
    v.exact = m.value("exact", false);
    s.metrics[name] = v;
  }
  if (j.contains("series") && j["series"].is_object()) s.series = j["series"];
  if (j.contains("extra") && j["extra"].is_object()) s.extra = j["extra"];
}

}  // namespace perfgate::run
