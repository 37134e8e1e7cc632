#include "measure/proc_stat.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace perfgate::measure {

CpuTickTable parse_proc_stat(const std::string& text) {
  CpuTickTable out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || !std::isdigit(static_cast<unsigned char>(line[3]))) continue;
    std::istringstream f(line.substr(3));
    int cpu = -1;
    // user nice system idle iowait irq softirq steal guest guest_nice
    std::uint64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    f >> cpu;
    for (auto& x : v)
      if (!(f >> x)) break;
    if (cpu >= 0) out[cpu] = CpuTicks{v[5], v[6], v[7]};
  }
  return out;
}

CpuTickTable read_proc_stat() {
  std::ifstream in("/proc/stat");
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_proc_stat(ss.str());
}

CpuLoss cpu_loss(const CpuTickTable& before, const CpuTickTable& after, const std::vector<int>& cpus,
                 long ticks_per_second) {
  std::vector<int> which = cpus;
  if (which.empty())
    for (const auto& [cpu, ticks] : after) which.push_back(cpu);
  CpuLoss loss;
  int counted = 0;
  for (int cpu : which) {
    auto b = before.find(cpu), a = after.find(cpu);
    if (b == before.end() || a == after.end()) continue;
    // A counter that went backwards (CPU hot-unplugged and back) contributes nothing.
    auto delta = [](std::uint64_t x, std::uint64_t y) { return y >= x ? static_cast<double>(y - x) : 0.0; };
    loss.steal_ms += delta(b->second.steal, a->second.steal);
    loss.irq_ms += delta(b->second.irq, a->second.irq) + delta(b->second.softirq, a->second.softirq);
    ++counted;
  }
  if (counted == 0 || ticks_per_second <= 0) return {};
  const double ms_per_tick = 1000.0 / static_cast<double>(ticks_per_second);
  loss.steal_ms *= ms_per_tick / counted;
  loss.irq_ms *= ms_per_tick / counted;
  return loss;
}

}  // namespace perfgate::measure
