#include "suite/benchmark_lister.hpp"

#include "common/files.hpp"
#include "run/gbench_sample.hpp"

namespace perfgate::suite {

plan::BenchmarkLister benchmark_lister() {
  return [](const std::string& scenario, const std::vector<std::string>& argv, const std::string& workdir) {
    TempDir dir("perfgate-run-");
    return run::list_gbench_benchmarks(scenario, argv, workdir.empty() ? dir.path() : fs::path(workdir), dir);
  };
}

}  // namespace perfgate::suite
