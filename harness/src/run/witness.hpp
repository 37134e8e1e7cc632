// Witnesses: processes of a sample that are not the program under test — a store, a remote, a
// shim — may write what they saw (requests served, bytes sent) to files in PERFGATE_WITNESS_DIR,
// and perfgate reads them itself after the sample. A count the program relays in its own report
// can then be held to the witness's (`self_reported`, check "equal"), which the program never
// touches on its way.
#pragma once

#include <filesystem>

#include "run/sample.hpp"

namespace perfgate::run {

// The folder a sample's witnesses write to, beside its working folder (created).
std::filesystem::path witness_dir(const std::filesystem::path& work);

// Every *.json file of `dir`: {"metrics": {"NAME": {"value": N, "unit": "count", "exact": true}}},
// as a program's report line. Each becomes a metric of `s` from source "witness:FILE"; RunError
// naming the file for one that cannot be read or names a metric the sample already has.
void add_witness_metrics(Sample& s, const std::filesystem::path& dir, const std::string& what);

}  // namespace perfgate::run
