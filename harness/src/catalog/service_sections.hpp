// The service contract's sections of a manifest (docs/scenario-contract.md, "Service
// scenarios"): `service`, `workloads.<name>` and `profiles.<name>.load`. Every key is known and
// typed here, so a misspelt one is exit 2 naming file and key instead of a default silently
// taken. A key a new consumer reads is added to the tables in service_sections.cpp.
#pragma once

#include <string>

#include "catalog/manifest.hpp"

namespace perfgate::catalog {

// Throws UsageError "FILE: service.stats_pth: unknown key (known: ...)" and the like.
void check_service_sections(const Manifest& m, const std::string& file);

}  // namespace perfgate::catalog
