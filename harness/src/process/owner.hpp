// Owner tags: every cgroup and temporary directory perfgate makes carries "<pid>-<start>" of
// the perfgate process that made it (start: /proc/<pid>/stat field 22, clock ticks since
// boot), so a later run can tell that its owner is gone even when the PID was reused.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace perfgate::process {

// /proc/<pid>/stat start time; nullopt when there is no such process or it is a zombie.
std::optional<unsigned long long> process_start_time(pid_t pid);

// "<pid>-<start>" of this process.
std::string owner_tag();

struct Owner {
  pid_t pid = 0;
  std::optional<unsigned long long> start;  // absent in names made before tags carried it
};

// Reads the owner from a name "<prefix><pid>-<start>-…" or "<prefix><pid>-…"; nullopt when
// the name does not start with `prefix` followed by a number.
std::optional<Owner> owner_of(const std::string& name, const std::string& prefix);

// True when no process has that PID, or the one that has it started at another time.
bool owner_gone(const Owner& owner);

}  // namespace perfgate::process
