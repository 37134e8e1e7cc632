// /proc/<pid>/io of a child that has exited but is not yet reaped (waitid with WNOWAIT):
// the read and write syscall counts of the whole sample process.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace perfgate::measure {

struct ProcIo {
  std::uint64_t rchar = 0, wchar = 0, syscr = 0, syscw = 0, read_bytes = 0, write_bytes = 0;
};

std::optional<ProcIo> read_proc_io(pid_t pid);

}  // namespace perfgate::measure
