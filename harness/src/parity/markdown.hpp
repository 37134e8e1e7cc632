// The markdown section of a parity run (parity.md): the agreement pass, what was dropped and
// why, the timed comparison and each server's measures.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace perfgate::parity {

std::string parity_markdown(const nlohmann::json& doc);

}  // namespace perfgate::parity
