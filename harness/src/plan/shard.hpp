// --shard i/n: a deterministic part of the selected scenarios, so a CI job matrix (n jobs,
// possibly on n perf VMs) runs each scenario exactly once. The names are sorted and dealt
// round-robin: the k-th name (0-based) goes to shard (k mod n) + 1. The same catalog and
// selection give the same shards on every machine, and the counts differ by at most one.
#pragma once

#include <string>
#include <vector>

#include "model/run_sections.hpp"
#include "plan/plan.hpp"

namespace perfgate::plan {

struct Shard {
  int index = 1;  // 1-based
  int count = 1;
};

// "i/n" with 1 <= i <= n. Throws UsageError.
Shard parse_shard(const std::string& text);

// The names of shard `s` among `names` (any order; duplicates removed).
std::vector<std::string> shard_names(std::vector<std::string> names, const Shard& s);

// The selection of one shard: the names it runs, every name of the selection (its Holm family
// is theirs: every shard's gated comparisons, so verdicts stay valid when shards are merged),
// and the results' run.shard ({index, count, scenarios, of}).
struct ShardSelection {
  std::vector<std::string> names;  // this shard's scenarios; empty for an empty shard
  std::vector<std::string> all;
  int count = 1;
  model::Shard info;
};

// `chosen` empty: the whole catalog; `text` is --shard's "i/n". An unknown name is exit 2 in
// every shard, not only in the one it would fall into.
ShardSelection select_shard(const std::vector<catalog::Manifest>& catalog, std::vector<std::string> chosen,
                            const std::string& text);

}  // namespace perfgate::plan
