// A time verdict between two different executables answers "is this binary faster", which is
// not always "is my change faster": where the linker placed the code moves a tight loop's speed
// on its own (docs/layout.md, issue 39). perfgate cannot relink prebuilt binaries, so it says so.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/layout_spread.hpp"
#include "model/results_model.hpp"

namespace perfgate::gate {

// The warning for a run whose BEFORE and AFTER programs are different files with different
// bytes and whose gated time comparison (a unit of time) came out better or worse; null
// otherwise (one executable run with other arguments, counts, the same, cannot tell). `spread`:
// the after program's layout spread measured here (`calibrate --layouts`), quoted with whether
// the verdict's change reaches what a single-layout A/B can trust.
std::optional<std::string> layout_caveat(const std::filesystem::path& before_program,
                                         const std::filesystem::path& after_program,
                                         const std::vector<model::Comparison>& comparisons,
                                         const std::optional<model::LayoutSpread>& spread = std::nullopt);

}  // namespace perfgate::gate
