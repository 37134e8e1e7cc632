#include "measure/host.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "measure/cgroup.hpp"
#include "perfgate/sample.hpp"

namespace perfgate::measure {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

namespace {

// The first processor's block of /proc/cpuinfo: every CPU of a VM is the same model.
std::string read_cpuinfo_block() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, block;
  while (std::getline(in, line) && !line.empty()) block += line + "\n";
  return block;
}

std::string field(const std::string& block, const std::string& key) {
  std::istringstream in(block);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k == key) return colon + 2 <= line.size() ? line.substr(colon + 2) : "";
  }
  return "";
}

}  // namespace

std::string cpu_model_of(const std::string& cpuinfo_block) {
  std::string name = field(cpuinfo_block, "model name");
  if (name.empty()) name = "unknown";
  // Hypervisors mask the name ("AMD EPYC" covers several generations, which move a scenario's
  // time ratio by up to 50%: asset_cache 0.61 on one, 0.73-0.75 on another), so the CPUID
  // family and model, which name the microarchitecture, go with it.
  const std::string family = field(cpuinfo_block, "cpu family"), model = field(cpuinfo_block, "model");
  if (!family.empty() && !model.empty()) name += " (family " + family + " model " + model + ")";
  return name;
}

HostInfo host_info() {
  HostInfo h;
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  h.hostname = name;
  struct utsname u {};
  if (::uname(&u) == 0) h.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  h.cpu_model = cpu_model_of(read_cpuinfo_block());
  h.cores = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  h.allowed_cpus = allowed_cpus();
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  if (meminfo >> key >> kib) h.memory_kib = kib;
  perfgate::Digest d;
  for (const auto& f : {h.cpu_model, std::to_string(h.cores), h.kernel,
                        std::to_string(h.memory_kib / (1024 * 1024)),  // GiB: free memory wobbles, the size does not
                        cgroup_layout().layout, cgroup_layout().cpu_source})
    d.field(f);
  h.fingerprint = d.hex().substr(0, 16);
  return h;
}

std::array<double, 3> load_average() {
  std::array<double, 3> l{0, 0, 0};
  std::ifstream in("/proc/loadavg");
  in >> l[0] >> l[1] >> l[2];
  return l;
}

nlohmann::json to_json(const HostInfo& h) {
  const auto& cg = cgroup_layout();
  return {{"fingerprint", h.fingerprint},
          {"hostname", h.hostname},
          {"cpu_model", h.cpu_model},
          {"cores", h.cores},
          {"allowed_cpus", h.allowed_cpus},
          {"kernel", h.kernel},
          {"memory_kib", h.memory_kib},
          {"cgroup",
           {{"layout", cg.layout},
            {"cpu_source", cg.cpu_source},
            {"memory_source", cg.memory_source},
            {"writable", cg.writable},
            {"note", cg.note}}}};
}

}  // namespace perfgate::measure
