// Wall-clock time stamps written into results, baselines, history and lock files.
#pragma once

#include <string>

namespace perfgate {

// UTC, to the second: 2026-01-31T12:00:00Z.
std::string now_iso8601();

// Seconds since the epoch, sub-second: run.started_unix / finished_unix order runs that start
// within one second (two batches under one lock).
double now_unix();

}  // namespace perfgate
