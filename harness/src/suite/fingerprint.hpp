// What determines a scenario's figures, as one hash: the parts of its manifest that shape the
// work (BEFORE's and AFTER's arguments, fixture and its version, CPUs, counting runs, service
// and workloads — not its title, claims, anchors, lies, policy or other variants), `ab`'s two
// commands, the params and load of the profile it ran at, the digest of its other sources
// (sources.sha256 beside a bundled scenario's manifest, written at configure time from every
// file of its folder but scenario.json, docs, tests and tools), and perfgate's
// measurement version (run/metric_specs.hpp). An accepted baseline run whose fingerprint is not
// this build's measured something else: it is stale, never compared.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/manifest.hpp"
#include "plan/plan.hpp"

namespace perfgate::suite {

std::string scenario_fingerprint(const plan::ScenarioPlan& scenario);

// The fingerprint of a scenario at a profile with the manifest's own params; empty when the
// profile is not declared.
std::string declared_fingerprint(const catalog::Manifest& manifest, const std::string& profile);

// Whether two manifests shape the same work at `profile` (the fingerprint's manifest part).
bool same_work(const catalog::Manifest& a, const catalog::Manifest& b, const std::string& profile);

}  // namespace perfgate::suite
