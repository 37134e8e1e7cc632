// `perfgate calibrate --layouts K --build CMD -- COMMAND` (docs/layout.md): how far layout alone
// moves a program on this machine. The program is built in K layouts; each layout's build is run
// against itself (an A/A pair of paired rounds, layouts/layout_ab.hpp), so its median is the
// layout's speed with the round noise halved, and the spread of the K medians is the layout's.
#pragma once

#include "layouts/layout_ab.hpp"
#include "store/layout_spread.hpp"

namespace perfgate::layouts {

// The spread of the layouts' A/A runs (every value > 0): each layout's geometric mean over both
// sides' rounds, the rounds' own noise (sd of ln value within a layout, pooled), the layouts' sd
// beyond it (the means' variance less the noise's share of it, 0 when the noise explains it all)
// and the change a single-layout A/B can trust. Throws std::invalid_argument with fewer than 2.
store::LayoutSpread spread_of(const std::vector<LayoutRun>& runs);

// The A/A over layouts of `r` (before_argv = after_argv) and what it shows. Throws RunError when a
// layout's run failed (its outcome's failure).
store::LayoutSpread measure_layout_spread(const LayoutRequest& r, const suite::RunSink& sink);

}  // namespace perfgate::layouts
