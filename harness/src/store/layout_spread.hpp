// A program's layout spread on this machine (docs/layout.md, "calibrate --layouts"), measured by
// `perfgate calibrate --layouts K --build CMD -- COMMAND` and kept per program file name in the
// user's cache: $XDG_CACHE_HOME (or ~/.cache)/perfgate/layout-spread/NAME.json. It is where `ab`
// finds it: the caveat on two prebuilt executables quotes the spread of a program of that name
// measured on a machine of the same CPU model.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/layout_spread.hpp"

namespace perfgate::store {

using model::LayoutSpread;

std::filesystem::path layout_spread_file(const std::string& program);
void write_layout_spread(const LayoutSpread& s);  // atomically; creates the folder
// The record kept for `program` (a file name or a path: its file name is the key); none when
// there is none or it cannot be read.
std::optional<LayoutSpread> read_layout_spread(const std::string& program);
nlohmann::json to_json(const LayoutSpread& s);

}  // namespace perfgate::store
