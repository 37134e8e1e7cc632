#include "process/owner.hpp"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace perfgate::process {

std::optional<unsigned long long> process_start_time(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  if (!in || !std::getline(in, s)) return std::nullopt;
  // Field 2 (comm) may hold spaces and parentheses: parse after the last ')'.
  const auto close_paren = s.rfind(')');
  if (close_paren == std::string::npos || close_paren + 2 > s.size()) return std::nullopt;
  std::istringstream rest(s.substr(close_paren + 2));
  std::string state;
  rest >> state;  // field 3
  if (state == "Z" || state == "X") return std::nullopt;
  std::string skip;
  for (int field = 4; field < 22; ++field) rest >> skip;
  unsigned long long start = 0;
  if (!(rest >> start)) return std::nullopt;
  return start;
}

std::string owner_tag() {
  static const std::string tag = [] {
    const pid_t pid = ::getpid();
    return std::to_string(pid) + "-" + std::to_string(process_start_time(pid).value_or(0));
  }();
  return tag;
}

std::optional<Owner> owner_of(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  std::size_t i = prefix.size();
  auto number = [&]() -> std::optional<unsigned long long> {
    const std::size_t from = i;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
    if (i == from || i - from > 19) return std::nullopt;
    return std::stoull(name.substr(from, i - from));
  };
  auto pid = number();
  if (!pid || *pid == 0 || *pid > 4194304 || i >= name.size() || name[i] != '-') return std::nullopt;
  Owner o;
  o.pid = static_cast<pid_t>(*pid);
  ++i;
  // "<start>-" follows in tagged names; an untagged name goes on with its own suffix.
  const std::size_t mark = i;
  if (auto start = number(); start && i < name.size() && name[i] == '-')
    o.start = start;
  else
    i = mark;
  return o;
}

bool owner_gone(const Owner& owner) {
  const auto now = process_start_time(owner.pid);
  if (!now) return true;
  return owner.start && *owner.start != *now;
}

}  // namespace perfgate::process
