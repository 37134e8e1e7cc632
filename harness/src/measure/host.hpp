// The machine a run happened on: a fingerprint that says whether absolute figures of two
// runs are comparable, and the load average around each scenario.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace perfgate::measure {

struct HostInfo {
  std::string hostname, cpu_model, kernel;
  int cores = 0;
  std::vector<int> allowed_cpus;
  std::uint64_t memory_kib = 0;
  std::string fingerprint;  // digest of cpu model, cores, kernel, memory, cgroup layout
};

HostInfo host_info();
// The CPU model as host classes name it: /proc/cpuinfo's model name, then the CPUID family and
// model where the kernel shows them ("AMD EPYC (family 25 model 17)").
std::string cpu_model_of(const std::string& cpuinfo_block);
std::array<double, 3> load_average();
std::vector<int> allowed_cpus();

nlohmann::json to_json(const HostInfo&);

}  // namespace perfgate::measure
