#include "measure/proc_io.hpp"

#include <fstream>
#include <string>

namespace perfgate::measure {

std::optional<ProcIo> read_proc_io(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/io");
  if (!in) return std::nullopt;
  ProcIo io;
  std::string key;
  std::uint64_t value;
  bool any = false;
  while (in >> key >> value) {
    any = true;
    if (key == "rchar:")
      io.rchar = value;
    else if (key == "wchar:")
      io.wchar = value;
    else if (key == "syscr:")
      io.syscr = value;
    else if (key == "syscw:")
      io.syscw = value;
    else if (key == "read_bytes:")
      io.read_bytes = value;
    else if (key == "write_bytes:")
      io.write_bytes = value;
  }
  if (!any) return std::nullopt;
  return io;
}

}  // namespace perfgate::measure
