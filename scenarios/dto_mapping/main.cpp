// dto_mapping: the scenario contract around the two mappings (the SDK does the plumbing).
//   run: build `files` file entities and `folders` folder entities (deterministic), map them
//   `reps` times with the variant's mapping, timing only the mapping loops on this thread's
//   CPU clock (entity copies and DTO teardown stay outside the window, so the figure is the
//   mapping's alone). The digest covers every field of every DTO of the last repetition.
//   Allocations are counted from outside in the harness's counting samples (manifest
//   "measure"); `allocs` divided by rows_mapped (extra) is allocs/row.
//   Lies (dto.hpp's Lies): --lie unknown-mime-empty|skip-folder-etag.
#include <ctime>
#include <string>
#include <vector>

#include "dto.hpp"
#include "perfgate/alloc_window.hpp"
#include "perfgate/scenario_main.hpp"

namespace {

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto n_files = inv.param<std::size_t>("files");
  const auto n_folders = inv.param<std::size_t>("folders");
  const auto reps = inv.param<std::size_t>("reps", 1);
  if (n_files == 0 || n_folders == 0 || reps == 0)
    throw std::invalid_argument("params files, folders, reps must be > 0");
  const bool after = inv.variant == "after";
  dto_mapping::Lies lies;
  lies.unknown_mime_empty = inv.lying("unknown-mime-empty");
  lies.skip_folder_etag = inv.lying("skip-folder-etag");

  const auto files = dto_mapping::make_files(n_files);
  const auto folders_template = dto_mapping::make_folders(n_folders);
  std::int64_t file_ns = 0, folder_ns = 0;
  std::vector<dto_mapping::FileDto> file_dtos;
  std::vector<dto_mapping::FolderDto> folder_dtos;
  for (std::size_t rep = 0; rep < reps; ++rep) {
    file_dtos.clear();
    folder_dtos.clear();
    file_dtos.reserve(n_files);
    folder_dtos.reserve(n_folders);
    auto folders = folders_template;  // the folder mapping consumes its entities

    // The allocation window (perfgate/alloc_window.hpp; a no-op unless the harness's counting
    // sample preloads the counter) covers the two mapping loops only, like the CPU clock.
    perfgate_alloc_window_start();
    std::int64_t t0 = thread_cpu_ns();
    if (after)
      for (const auto& f : files) file_dtos.push_back(dto_mapping::after::map_file(f, lies));
    else
      for (const auto& f : files) file_dtos.push_back(dto_mapping::before::map_file(f));
    std::int64_t t1 = thread_cpu_ns();
    if (after)
      for (auto& f : folders) folder_dtos.push_back(dto_mapping::after::map_folder(std::move(f), lies));
    else
      for (auto& f : folders) folder_dtos.push_back(dto_mapping::before::map_folder(std::move(f)));
    std::int64_t t2 = thread_cpu_ns();
    perfgate_alloc_window_stop();
    file_ns += t1 - t0;
    folder_ns += t2 - t1;
  }

  perfgate::Digest work;
  perfgate::OutputLog out(work);
  for (const auto& d : file_dtos) out.line(dto_mapping::canonical(d));
  for (const auto& d : folder_dtos) out.line(dto_mapping::canonical(d));

  const double file_rows = static_cast<double>(n_files * reps), folder_rows = static_cast<double>(n_folders * reps);
  perfgate::Report report;
  report.metric("map_cpu_ms", static_cast<double>(file_ns + folder_ns) / 1e6, "ms")
      .metric("file_ns_per_row", static_cast<double>(file_ns) / file_rows, "ns")
      .metric("folder_ns_per_row", static_cast<double>(folder_ns) / folder_rows, "ns");
  report.extra("files", n_files).extra("folders", n_folders).extra("reps", reps);
  report.extra("rows_mapped", (n_files + n_folders) * reps);
  return report.digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("dto_mapping")
                                     .variants({"before", "after"})
                                     .lies({"unknown-mime-empty", "skip-folder-etag"})
                                     .run(run));
}
