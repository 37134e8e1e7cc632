// Checking LoadOptions, and the load thread's pinning and sleep (internal to perfgate::load).
#pragma once

#include <chrono>

#include "load/http_load.hpp"

namespace perfgate::load {

// Throws std::invalid_argument naming the option.
void validate(const LoadOptions& o, const RequestSet& set);
// Pins the calling thread to `cpus` (nothing when empty); throws std::invalid_argument.
void pin_this_thread(const std::vector<int>& cpus);
// Sleeps until `t` on the steady clock (CLOCK_MONOTONIC, as libstdc++'s steady_clock).
void sleep_until(std::chrono::steady_clock::time_point t);

}  // namespace perfgate::load
