// perfgate new NAME [--kind batch|service|gbench] [--out DIR]: a scenario folder that builds,
// passes its tests and runs as it is, from share/perfgate/templates/scenario (its template.json
// says what goes where). It goes into the catalog of the perfgate source tree it runs from
// (scenarios/NAME, built by that tree's CMake), or into DIR/NAME — with a standalone
// CMakeLists.txt against the installed SDK unless DIR is such a catalog. A bad name, a folder
// that exists or no catalog to put it in is exit 2 before anything is written.
#pragma once

#include <string>
#include <vector>

namespace perfgate::catalog {

inline constexpr const char* kNewScenarioAbout =
    "Write a new scenario folder that builds and runs as it is: scenario.json (with its threat list), BEFORE and "
    "AFTER, tests, README.md; in this tree's catalog (scenarios/NAME) or under --out DIR: the catalog to write\n"
    "DIR/NAME into (default: scenarios/ of the perfgate source tree around the working folder); outside a\n"
    "perfgate tree's catalog the folder builds on its own against the installed SDK";

// Writes the folder and prints what it wrote. Throws UsageError before anything is written.
void new_scenario(const std::string& name, const std::string& kind, const std::string& out);

// The kinds a new scenario can be: the template's.
std::vector<std::string> kind_names();

}  // namespace perfgate::catalog
