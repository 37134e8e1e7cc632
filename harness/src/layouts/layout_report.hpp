// What a comparison over layouts says: a table of the layouts, the verdict over them with its
// interval, each side's layout spread ("layout alone moves this program ±X%"), and, when it
// cannot tell, whether more layouts or more rounds would decide it. And the same as JSON, the
// `layouts` section of OUT/layouts.json.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "layouts/layout_ab.hpp"

namespace perfgate::layouts {

void print_layouts(std::ostream& out, const LayoutRequest& r, const LayoutOutcome& o);
nlohmann::json layouts_json(const LayoutRequest& r, const LayoutOutcome& o);

}  // namespace perfgate::layouts
