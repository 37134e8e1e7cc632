#include "common/program_path.hpp"

#include <unistd.h>

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

}  // namespace perfgate
