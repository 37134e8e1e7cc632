// A bundled service scenario with a `service.parity` section (docs/scenario-contract.md,
// "Parity scenarios") runs through the parity engine around its paired rounds:
//   before the rounds, the agreement pass between its own BEFORE and AFTER servers — any
//   disagreement, hollow answer or a pass that compared nothing is exit 3 (nothing may be
//   dropped between a scenario's own variants) — with each request's statement count;
//   after them, each variant's capacity, RSS, cold start and bytes per response;
//   and the per-route statement gates on AFTER.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/sample.hpp"
#include "run/service_sampler.hpp"

namespace perfgate::parity {

// True when the manifest's service section has a parity section.
bool wanted(const nlohmann::json& service);

// Throws run::EquivalenceFailure on any disagreement, RunError when a server cannot start.
nlohmann::json bundled_agreement(const run::ServicePlan& plan, const std::filesystem::path& dir);

// Per variant (before, after): capacity over concurrency with the arithmetic check (CPU per
// request: the median over the rounds' samples), offered-rate latency, RSS, cold start.
nlohmann::json bundled_measures(const run::ServicePlan& plan, const std::filesystem::path& dir,
                                const std::vector<run::Sample>& samples);

struct StatementGate {
  std::string route, detail;
  bool passed = false;
};
// One gate per route of service.parity.statement_limits: AFTER's statements per request on
// that route (the mean over the agreement pass's requests of it) at most the limit.
std::vector<StatementGate> statement_gates(const nlohmann::json& agreement, const nlohmann::json& service);

}  // namespace perfgate::parity
