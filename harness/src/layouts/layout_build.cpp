#include "layouts/layout_build.hpp"

#include <cstdlib>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"

namespace perfgate::layouts {

std::filesystem::path layout_cc() {
  return catalog::executable_dir().parent_path() / "libexec" / "perfgate" / "perfgate-layout-cc";
}

std::string layout_method() {
  if (const char* chosen = std::getenv("PERFGATE_LAYOUT_METHOD"); chosen && *chosen) return chosen;
  try {
    resolve_program("ld.lld");
    return "shuffle";
  } catch (const UsageError&) {
    return "pad";  // no lld here: the launchers' padding works with any linker
  }
}

std::vector<std::string> layout_build_argv(const std::string& build_command, int layout) {
  auto compiler = [](const char* var, const char* fallback) {
    const char* v = std::getenv(var);
    return layout_cc().string() + " " + (v && *v ? v : fallback);
  };
  return {"env",
          "PERFGATE_LAYOUT_SEED=" + std::to_string(layout),
          "PERFGATE_LAYOUT_METHOD=" + layout_method(),
          "CC=" + compiler("CC", "cc"),
          "CXX=" + compiler("CXX", "c++"),
          "/bin/sh",
          "-c",
          build_command};
}

}  // namespace perfgate::layouts
