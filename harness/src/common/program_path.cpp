#include "common/program_path.hpp"

#include <unistd.h>

#include <algorithm>
#include <boost/process/search_path.hpp>
#include <cerrno>
#include <cstring>

#include "common/errors.hpp"

namespace perfgate {

std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) throw UsageError("cannot execute " + name + ": " + std::strerror(errno));
    return name;
  }
  auto p = boost::process::search_path(name);
  if (p.empty()) throw UsageError("command not found: " + name);
  return p.string();
}

std::string padded_path(const std::string& path, std::size_t length) {
  if (path.size() >= length || path.find('/') == std::string::npos) return path;
  const std::size_t extra = length - path.size();
  const std::size_t at = path.front() == '/' ? 1 : 0;
  std::string out = path.substr(0, at);
  for (std::size_t i = 0; i < extra / 2; ++i) out += "./";
  out += path.substr(at);
  if (extra % 2 == 1) {
    // One more slash after the first one that is not the root's: "/.//bin/x", ".//x", "a//x".
    const auto slash = out.find('/', 1);
    out.insert(slash == std::string::npos ? 0 : slash, "/");
  }
  return out;
}

std::size_t longest_path(const std::vector<std::string>& programs) {
  std::size_t length = 0;
  for (const auto& p : programs)
    if (p.find('/') != std::string::npos) length = std::max(length, p.size());
  return length;
}

}  // namespace perfgate
