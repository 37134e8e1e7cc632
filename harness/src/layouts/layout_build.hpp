// How a build command builds layout k (docs/layout.md): the same command, run with sh -c, with
// PERFGATE_LAYOUT_SEED=k and CC and CXX wrapped by perfgate-layout-cc (the caller's $CC and $CXX,
// else cc and c++), by the method layout_method() chooses. make takes CC and CXX from the environment unless its
// Makefile sets them; a first CMake configure takes them as the compilers (the launcher as the program, the compiler as
// its first argument); the launcher hands links on to perfgate-layout-ld. Every layout needs a
// tree of its own: a build that already configured keeps its compilers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::layouts {

// libexec/perfgate/perfgate-layout-cc beside this perfgate.
std::filesystem::path layout_cc();

// The launcher's PERFGATE_LAYOUT_METHOD for perfgate's layout builds: the caller's when set, else
// shuffle (-ffunction-sections, lld shuffling the sections: as much variety for one compile,
// docs/layout.md "Which layouts") when ld.lld is on PATH, else pad.
std::string layout_method();

// argv that runs `build_command` for layout `layout` (>= 1).
std::vector<std::string> layout_build_argv(const std::string& build_command, int layout);

}  // namespace perfgate::layouts
