// JUnit XML of a results document, for CI systems that show test results: one <testsuite>
// per scenario and profile, one <testcase> per gate; a failed gate is a <failure> carrying the
// figure and the reason, a gate with nothing to decide on ("no comparable baseline") is
// <skipped>, a scenario that could not be run is an <error>.
#pragma once

#include <filesystem>
#include <string>

#include "model/results_model.hpp"

namespace perfgate::exports {

std::string junit_xml(const model::ResultsDoc& results);

// XML character escaping for text and attribute values; drops characters XML 1.0 forbids.
std::string xml_escape(const std::string& text);

}  // namespace perfgate::exports
