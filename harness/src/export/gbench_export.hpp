// perfgate results in Google Benchmark's JSON format (what `--benchmark_format=json` prints),
// so Google Benchmark's tools/compare.py can read them: one benchmark "SCENARIO/PROFILE/VARIANT"
// per variant, one "iteration" entry per measured sample (real_time = wall_ms, cpu_time =
// cpu_ms, time_unit "ms", the gated metric as a counter) and mean/median/stddev aggregates. A
// Google Benchmark scenario (kind gbench) exports each benchmark as "NAME/VARIANT" with its own
// real and CPU time (ns) per round and its counters.
//   compare.py benchmarks old.json new.json
//   compare.py filters results.json before after     # BEFORE against AFTER of one run
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/results_model.hpp"

namespace perfgate::exports {

nlohmann::json gbench_json(const model::ResultsDoc& results);

}  // namespace perfgate::exports
