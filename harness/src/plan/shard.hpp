// --shard i/n: a deterministic part of the selected scenarios, so a CI job matrix (n jobs,
// possibly on n perf VMs) runs each scenario exactly once. The names are sorted and dealt
// round-robin: the k-th name (0-based) goes to shard (k mod n) + 1. The same catalog and
// selection give the same shards on every machine, and the counts differ by at most one.
#pragma once

#include <string>
#include <vector>

namespace perfgate::plan {

struct Shard {
  int index = 1;  // 1-based
  int count = 1;
};

// "i/n" with 1 <= i <= n. Throws UsageError.
Shard parse_shard(const std::string& text);

// The names of shard `s` among `names` (any order; duplicates removed).
std::vector<std::string> shard_names(std::vector<std::string> names, const Shard& s);

}  // namespace perfgate::plan
