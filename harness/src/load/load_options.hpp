// Checking LoadOptions and pinning the load thread (internal to perfgate::load).
#pragma once

#include "load/http_load.hpp"

namespace perfgate::load {

// Throws std::invalid_argument naming the option.
void validate(const LoadOptions& o, const RequestSet& set);
// Pins the calling thread to `cpus` (nothing when empty); throws std::invalid_argument.
void pin_this_thread(const std::vector<int>& cpus);

}  // namespace perfgate::load
