#include "catalog/command_sampling.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/errors.hpp"
#include "perfgate/enum_names.hpp"

namespace perfgate::catalog {

namespace fs = std::filesystem;

std::string StdoutTarget::describe() const { return kind == Kind::File ? file.string() : std::string(name_of(kind)); }

StdoutTarget parse_stdout_target(const std::string& where) {
  StdoutTarget t;
  if (where == "null")
    t.kind = StdoutTarget::Kind::Null;
  else if (where == "pipe")
    t.kind = StdoutTarget::Kind::Pipe;
  else if (where == "inherit")
    t.kind = StdoutTarget::Kind::Inherit;
  else if (where.empty())
    throw UsageError("--output: empty; give null, pipe, inherit or a file");
  else {
    t.kind = StdoutTarget::Kind::File;
    t.file = fs::absolute(where);
  }
  return t;
}

void parse_ignore_failure(const std::string& value, CommandSampling& sampling) {
  if (value.empty() || value == "all-non-zero") {
    sampling.ignore_all_exits = true;
    return;
  }
  std::size_t at = 0;
  while (at <= value.size()) {
    const std::size_t comma = std::min(value.find(',', at), value.size());
    const std::string code = value.substr(at, comma - at);
    char* end = nullptr;
    const long n = std::strtol(code.c_str(), &end, 10);
    if (code.empty() || *end != '\0' || n < 1 || n > 255)
      throw UsageError("--ignore-failure: '" + code +
                       "' is not an exit code (1-255); give all-non-zero or a list "
                       "like 1,2");
    sampling.ignored_exits.insert(static_cast<int>(n));
    at = comma + 1;
  }
}

}  // namespace perfgate::catalog
