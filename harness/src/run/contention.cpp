#include "run/contention.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/number_format.hpp"
#include "perfgate/percentile.hpp"

namespace perfgate::run {

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, 0.5);
}

std::string times(double ratio) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1fx", ratio);
  return buf;
}

const MetricValue* metric(const Sample& s, const std::string& name) {
  const auto it = s.metrics.find(name);
  return it == s.metrics.end() ? nullptr : &it->second;
}

// A Google Benchmark sample's real time over its CPU time, summed over its CPU-timed benchmarks.
std::optional<double> real_over_cpu(const Sample& s, const std::vector<std::string>& real_time_benchmarks) {
  double real = 0, cpu = 0;
  for (const auto& [name, m] : s.metrics) {
    const auto colon = name.rfind(":cpu_time");
    if (colon == std::string::npos || colon + 9 != name.size()) continue;
    const std::string bench = name.substr(0, colon);
    if (std::find(real_time_benchmarks.begin(), real_time_benchmarks.end(), bench) != real_time_benchmarks.end())
      continue;
    const auto* r = metric(s, bench + ":real_time");
    if (!r || !(m.value > 0)) continue;
    real += r->value;
    cpu += m.value;
  }
  if (!(cpu > 0)) return std::nullopt;
  return real / cpu;
}

}  // namespace

std::vector<std::string> contention_warnings(const std::vector<Sample>& samples,
                                             const std::vector<std::string>& variants,
                                             const std::vector<std::string>& real_time_benchmarks) {
  std::vector<std::string> out;
  for (const auto& variant : variants) {
    std::vector<double> irq, wait, ratio;
    for (const auto& s : samples) {
      if (s.warmup || s.variant != variant) continue;
      const auto* wall = metric(s, "wall_ms");
      if (wall && wall->value >= kMinWallForShares) {
        if (s.irq_ms) irq.push_back(*s.irq_ms / wall->value);
        if (const auto* w = metric(s, "cpu_wait_ms")) wait.push_back(w->value / wall->value);
      }
      if (const auto r = real_over_cpu(s, real_time_benchmarks)) ratio.push_back(*r);
    }
    std::vector<std::string> said;
    if (!irq.empty() && median_of(irq) > kContendedIrqShare)
      said.push_back("interrupts took " + format_percent(median_of(irq), 0) + " of its wall time");
    if (!wait.empty() && median_of(wait) > kContendedWaitShare)
      said.push_back("it waited for a CPU " + format_percent(median_of(wait), 0) + " of its wall time");
    if (!ratio.empty() && median_of(ratio) > kContendedRealOverCpu)
      said.push_back("its benchmarks took " + times(median_of(ratio)) + " their CPU time in real time");
    if (said.empty()) continue;
    std::string line = variant + ": ";
    for (std::size_t i = 0; i < said.size(); ++i) line += (i ? "; " : "") + said[i];
    const std::size_t n = std::max({irq.size(), wait.size(), ratio.size()});
    out.push_back(line + " (median of " + std::to_string(n) +
                  " samples): its CPU was shared while it ran (another process, interrupts), so its times are "
                  "inflated and noisier than this machine's own; the verdict holds at its level, on noisier figures");
  }
  return out;
}

}  // namespace perfgate::run
