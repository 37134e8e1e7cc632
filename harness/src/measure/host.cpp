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

HostInfo host_info() {
  HostInfo h;
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  h.hostname = name;
  struct utsname u {};
  if (::uname(&u) == 0) h.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      h.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  if (h.cpu_model.empty()) h.cpu_model = "unknown";
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
