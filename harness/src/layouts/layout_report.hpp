// What a comparison over layouts says: a table of the layouts, the verdict over them with its
// interval, each side's layout spread ("layout alone moves this program ±X%"), and, when it
// cannot tell, whether more layouts or more rounds would decide it. And the same as JSON, the
// `layouts` section of OUT/layouts.json, and `ab --layouts K` from its pair to that file.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "layouts/layout_ab.hpp"
#include "plan/ab_plan.hpp"

namespace perfgate::layouts {

void print_layouts(std::ostream& out, const LayoutRequest& r, const LayoutOutcome& o);
nlohmann::json layouts_json(const LayoutRequest& r, const LayoutOutcome& o);

// `ab --layouts K`: the pair's layouts one by one (each layout's results in OUT/layouts/), the
// verdict over them printed and written to OUT/layouts.json or --json. Returns the exit code.
int run_over_layouts(const plan::AbPair& pair, int layouts, int rounds, const std::string& metric,
                     const plan::RunOptions& options, const std::vector<std::string>& argv);

}  // namespace perfgate::layouts
