#include "layouts/layout_build.hpp"

#include <cstdlib>

#include "catalog/catalog.hpp"

namespace perfgate::layouts {

std::filesystem::path layout_cc() {
  return catalog::executable_dir().parent_path() / "libexec" / "perfgate" / "perfgate-layout-cc";
}

std::vector<std::string> layout_build_argv(const std::string& build_command, int layout) {
  auto compiler = [](const char* var, const char* fallback) {
    const char* v = std::getenv(var);
    return layout_cc().string() + " " + (v && *v ? v : fallback);
  };
  return {"env",
          "PERFGATE_LAYOUT_SEED=" + std::to_string(layout),
          "CC=" + compiler("CC", "cc"),
          "CXX=" + compiler("CXX", "c++"),
          "/bin/sh",
          "-c",
          build_command};
}

}  // namespace perfgate::layouts
