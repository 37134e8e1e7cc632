// The sections a run header carries for the command that made its plan (run.shard,
// run.against, run.batch, run.bisect, run.lock): values here, their keys only in the results
// codec (store/run_sections_codec.cpp). A field an older file may lack is optional, so such a
// file is written back as it was read.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfgate::model {

// `run --shard i/n`: this run is shard `index` of `count`, running `scenarios` of the `of` planned.
struct Shard {
  int index = 0, count = 0, of = 0;
  std::vector<std::string> scenarios = {};
};

// --against DIR: the other build whose AFTER this build's AFTER was compared with.
struct AgainstBuild {
  std::string dir = {}, catalog = {};       // absolute
  std::optional<std::string> commit = {};   // the other build's (run.against.git.commit)
  std::optional<std::string> meaning = {};  // how before, after and the ratio read
};

// --lock FILE: the machine's lock the run held, and what waiting for it took.
struct LockWait {
  std::string file = {};  // absolute
  double waited_s = 0, acquired_unix = 0;
  std::optional<std::string> waited_for = {};  // the holder seen while waiting; empty: none
};

// `perfgate batch`: its plan file and what it ran, then the lock it took and the load then.
struct BatchRun {
  std::string plan = {}, prebuilt = {};  // absolute
  std::optional<std::string> catalog = {};
  std::optional<int> steps = {};
  std::optional<LockWait> lock = {};
  std::optional<std::vector<double>> load_before = {};  // 1/5/15-minute load averages
};

// `perfgate bisect`: the step this run is, the tested commit against good, in its n-th batch.
struct BisectStep {
  std::string good = {}, tested = {};
  std::optional<int> batch = {};
};

}  // namespace perfgate::model
