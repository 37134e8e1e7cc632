#include "measure/proc_io.hpp"

#include <fstream>
#include <string>

#include "measure/keyed_values.hpp"

namespace perfgate::measure {

std::optional<ProcIo> read_proc_io(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/io");
  if (!in) return std::nullopt;
  ProcIo io;
  if (!read_keyed_values(in, {{"rchar:", &io.rchar},
                              {"wchar:", &io.wchar},
                              {"syscr:", &io.syscr},
                              {"syscw:", &io.syscw},
                              {"read_bytes:", &io.read_bytes},
                              {"write_bytes:", &io.write_bytes}}))
    return std::nullopt;
  return io;
}

}  // namespace perfgate::measure
