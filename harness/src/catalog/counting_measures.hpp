// The counting measures a manifest's `measure` and --measure name (run/counting_sample.hpp takes
// them), and whether this machine can take one: checked while planning, so a run that could not
// count is exit 2 before anything runs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::catalog {

inline const std::vector<std::string> kCountingMeasures = {"allocs", "instructions"};

// The allocation counter, staged and installed as lib/libperfgate_alloc.so beside bin/perfgate.
std::filesystem::path alloc_library();
// The statement counter a parity pass runs SQLite servers under: lib/libperfgate_sqlite.so.
std::filesystem::path sqlite_counter_library();

// Throws UsageError when `measure` is unknown or what it needs is missing (the interposer
// beside the binary, valgrind on PATH).
void check_counting_measure(const std::string& measure);

}  // namespace perfgate::catalog
