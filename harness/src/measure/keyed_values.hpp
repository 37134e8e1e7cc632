// The `KEY VALUE` pairs of a /proc or cgroup statistics file (/proc/PID/io, cpu.stat,
// cpuacct.stat): each value whose key `fields` names is stored where it points, other keys
// passed over, a key the file lacks left as it was.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <istream>
#include <string>
#include <string_view>
#include <utility>

namespace perfgate::measure {

// Whether `in` held any pair at all.
inline bool read_keyed_values(std::istream& in,
                              std::initializer_list<std::pair<std::string_view, std::uint64_t*>> fields) {
  std::string key;
  std::uint64_t value;
  bool any = false;
  while (in >> key >> value) {
    any = true;
    for (const auto& [name, field] : fields)
      if (key == name) *field = value;
  }
  return any;
}

}  // namespace perfgate::measure
