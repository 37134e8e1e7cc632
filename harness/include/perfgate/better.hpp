// A metric's direction: whether a lower or a higher value is the better one. Written "lower"
// or "higher" in a program's report line, results.json, baseline.json and the history database.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "perfgate/enum_names.hpp"

namespace perfgate {

enum class Better { Lower, Higher };

constexpr auto names(Better) { return in_declaration_order<Better>({"lower", "higher"}); }

}  // namespace perfgate
