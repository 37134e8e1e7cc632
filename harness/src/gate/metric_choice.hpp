// Which metric `perfgate ab` gates when the user names none, decided from what BOTH sides
// measured, and the wall-time guard that keeps a CPU gate honest: an AFTER that trades CPU
// for waiting (sleeps, lock waits, I/O) must not pass because only its CPU time was judged.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "model/results_model.hpp"
#include "run/sample.hpp"

namespace perfgate::gate {

struct MetricChoice {
  std::string metric;  // "cpu_ms" or "wall_ms"
  std::string why;
  double cpu_wall_ratio_before = 0, cpu_wall_ratio_after = 0;  // median cpu_ms / median wall_ms
  // Median per sample of (cpu_ms + cpu_wait_ms) / wall_ms: on CPU or ready to run. NaN when
  // cpu_wait_ms (cgroup v2 pressure) was not measured; the choice then uses cpu/wall.
  double busy_wall_ratio_before = 0, busy_wall_ratio_after = 0;
};

// Below this share of its wall time on CPU, or runnable and queued behind other work (PSI's
// cpu_wait_ms), a side is said to be waiting. Without cpu_wait_ms a CPU-bound program on a
// busy 2-core VM can fall to ~0.65 of its wall on CPU, so the share counts the queueing: time
// lost to other programs is not a cost of the program, time blocked is.
inline constexpr double kCpuBoundShare = 0.7;
// The same with cpu_wait_ms counted in. Higher, because the sample cgroup's pressure total also
// counts run-queue time before exec that wall_ms leaves out (a CPU-bound program reads 1.0–1.16
// on a loaded 2-core VM), while half a program's work traded for a sleep reads ~0.73 there.
inline constexpr double kBusyShare = 0.85;

// CPU time from the cgroup when both sides are CPU-bound (busy share >= cpu_bound_share);
// wall time otherwise (and when
// either side lacks cpu_ms, e.g. no cgroup and no rusage). Warm-up samples are ignored.
MetricChoice choose_ab_metric(const std::vector<run::Sample>& samples, double cpu_bound_share = kCpuBoundShare);
nlohmann::json to_json(const MetricChoice&);

// The band the guard tolerates: the stated band, the run's noise band, or one standard error
// of the median per-round log-ratio of the guard metric (1.2533 · 1.4826 · MAD / √n, robust),
// whichever is widest. The guard's interval already carries the run's noise; the extra
// standard error keeps heavy-tailed wall noise (a busy machine) from tripping it, while an
// AFTER that trades half its work for a longer wait still lands well beyond.
double guard_band(const std::vector<run::Sample>& samples, const catalog::Guard& guard, double noise);

// Fails when the guard metric's whole interval lies above 1 + band (a slowdown beyond its
// noise), passes when it lies wholly below, and otherwise cannot tell (never a pass). `c` is
// the after/before comparison of the guard metric (null: not measured, which passes with a
// note, since the gated metric still decides).
model::GateResult guard_gate(const model::Comparison* c, const catalog::Guard& guard, double band);

// Whether the guard has its own decision yet: its whole interval beyond the band (it fails) or
// wholly within it (it passes). The stopping rule waits while it is open, so a CPU gate decided
// at the first look cannot end the rounds before a small trade of CPU for waiting shows.
bool guard_decided(const model::Comparison& c, double band);
// Its whole interval beyond the band: the guard fails.
bool guard_worse(const model::Comparison& c, double band);

}  // namespace perfgate::gate
