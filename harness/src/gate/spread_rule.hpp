// The spread a host-dependent ratio is judged against: which accepted runs of this run's host
// class say how far this run may fall from them by chance.
//
// Runs of one class recorded on one machine agree far more closely than machines of that class
// do: ten runs of asset_cache on one "AMD EPYC" VM read 0.596-0.640, another "AMD EPYC" VM
// reads 0.73-0.75 with the same code (af6d431 built and run on both). So a machine is a level of
// its own (its host fingerprint: CPU model, cores, kernel, memory, cgroup layout):
//
// - this machine has >= min_runs accepted runs: the spread of those runs (between-run rule);
// - else runs from >= 2 machines of the class: each machine's mean ln ratio is one observation
//   of the class; the prediction for a new machine takes their spread plus the within-machine
//   spread, on t(M - 1) (between-machine rule) — wide with few machines, as it must be;
// - else nothing: one machine cannot say how far another of its class moves the ratio.
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::gate {

struct Spread {
  std::string rule;  // "between-run" (this machine's runs) or "between-machine"
  double mean = 0;   // of ln ratio: the reference
  double sd = 0;     // the spread a new run of this kind has around it (ln ratio)
  double scale = 0;  // sd of a new draw around the estimated mean
  double df = 0;     // of the t distribution the draw follows
  int accepted_runs = 0;
  int machines = 0;
  std::string why;  // for people: which runs, how many machines
};

// `runs` are the current accepted runs of `host_class`; `machine` is this run's host fingerprint.
// Null (with *why_not) when they cannot say how far this run may fall.
std::optional<Spread> class_spread(const std::vector<model::AcceptedRun>& runs, const std::string& host_class,
                                   const std::string& machine, int min_runs, double min_sd, std::string* why_not);

}  // namespace perfgate::gate
