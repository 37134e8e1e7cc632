#include "catalog/counting_measures.hpp"

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"

namespace perfgate::catalog {

std::filesystem::path alloc_library() { return executable_dir().parent_path() / "lib" / "libperfgate_alloc.so"; }
std::filesystem::path sqlite_counter_library() {
  return executable_dir().parent_path() / "lib" / "libperfgate_sqlite.so";
}

void check_counting_measure(const std::string& measure) {
  if (measure == "allocs") {
    if (!std::filesystem::exists(alloc_library()))
      throw UsageError("--measure allocs: the allocation counter " + alloc_library().string() +
                       " is missing (build target perfgate_alloc)");
  } else if (measure == "instructions") {
    try {
      resolve_program("valgrind");
    } catch (const UsageError&) {
      throw UsageError("--measure instructions needs valgrind on PATH (Debian: apt-get install valgrind)");
    }
  } else {
    throw UsageError("unknown measure '" + measure + "' (allocs, instructions)");
  }
}

}  // namespace perfgate::catalog
