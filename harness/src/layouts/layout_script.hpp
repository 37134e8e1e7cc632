// --debug-samples with a layout dimension: a VALUES object of the script (run/sample_script.hpp)
// may carry "layouts": [o1, o2, ...], layout k's speed offset, so that layout k's samples are
// those of {"median": M·(1 + o_k), "spread": S}. Each layout's run reads a script of its own,
// written here with the offsets applied and the key removed, and a noise seed of its own per
// layout (a layout is another build: its rounds are not the first layout's again).
#pragma once

#include <filesystem>

namespace perfgate::layouts {

// The script for layout `layout` (1-based) in `dir`. Throws UsageError naming the file and field
// when a "layouts" list is not numbers above -1 or holds fewer than `layouts` offsets.
std::filesystem::path script_for_layout(const std::filesystem::path& script, int layout, int layouts,
                                        const std::filesystem::path& dir);

}  // namespace perfgate::layouts
