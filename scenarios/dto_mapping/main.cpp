// dto_mapping: the scenario contract around the two mappings (the SDK does the plumbing).
//   run: build `files` file entities and `folders` folder entities (deterministic), map them
//   `reps` times with the variant's mapping, timing only the mapping loops on this thread's
//   CPU clock (entity copies and DTO teardown stay outside the window, so the figure is the
//   mapping's alone). The digest covers every field of every DTO of the last repetition.
//   Allocations: counted by the harness's counting runs (manifest "measure"), per kind here.
//   Then, untimed (after the last window), the probes: every 7th entity written under its id,
//   and entities outside what the seeds make, each mapped once and digested.
//   Lies (dto.hpp's Lies): --lie unknown-mime-empty|skip-folder-etag|intern-by-prefix|
//   dto-by-id|folded-mime.
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dto.hpp"
#include "perfgate/alloc_window.hpp"
#include "perfgate/outside_window.hpp"
#include "perfgate/scenario_main.hpp"
#include "perfgate/thread_cpu.hpp"

namespace {

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto n_files = inv.param<std::size_t>("files");
  const auto n_folders = inv.param<std::size_t>("folders");
  const auto reps = inv.param<std::size_t>("reps", 1);
  if (n_files == 0 || n_folders == 0 || reps == 0)
    throw std::invalid_argument("params files, folders, reps must be > 0");
  const bool after = inv.variant == "after";
  const dto_mapping::Lies lies{inv.lying("unknown-mime-empty"), inv.lying("skip-folder-etag"),
                               inv.lying("intern-by-prefix"), inv.lying("dto-by-id"), inv.lying("folded-mime")};
  const bool worker_thread = inv.lying("worker-thread");
  const auto files = dto_mapping::make_files(n_files);
  const auto folders_template = dto_mapping::make_folders(n_folders);
  std::int64_t file_ns = 0, folder_ns = 0;
  long long file_allocs = 0;  // counted in the file loops (counting runs only)
  std::vector<dto_mapping::FileDto> file_dtos;
  std::vector<dto_mapping::FolderDto> folder_dtos;
  for (std::size_t rep = 0; rep < reps; ++rep) {
    file_dtos.clear(), folder_dtos.clear();
    file_dtos.reserve(n_files), folder_dtos.reserve(n_folders);
    auto folders = folders_template;  // the folder mapping consumes its entities
    // The allocation window (a no-op unless the harness's counting run preloads the counter)
    // and the CPU clock cover the two mapping loops only.
    perfgate_alloc_window_start();
    const long long at_start = perfgate_alloc_window_allocs();
    // perfgate reads the cgroup's CPU where the loops begin and end (self_reported: map_cpu_ms).
    std::optional<perfgate::OutsideWindow> window;
    window.emplace("map");
    perfgate::add_thread_cpu(file_ns, [&] {
      const auto map_files = [&] {
        for (const auto& f : files)
          file_dtos.push_back(after ? dto_mapping::after::map_file(f, lies) : dto_mapping::before::map_file(f));
      };
      // The lie "worker-thread": the file loop on a thread this one's CPU clock does not see;
      // only the wait is counted (perfgate holds map_cpu_ms to the cgroup's CPU in the window).
      if (worker_thread)
        std::thread(map_files).join();
      else
        map_files();
    });
    file_allocs += perfgate_alloc_window_allocs() - at_start;
    perfgate::add_thread_cpu(folder_ns, [&] {
      for (auto& f : folders)
        folder_dtos.push_back(after ? dto_mapping::after::map_folder(std::move(f), lies)
                                    : dto_mapping::before::map_folder(std::move(f)));
    });
    window.reset();
    perfgate_alloc_window_stop();
  }
  perfgate::Digest work;
  perfgate::OutputLog out(work);
  for (const auto& d : file_dtos) out.line(dto_mapping::canonical(d));
  for (const auto& d : folder_dtos) out.line(dto_mapping::canonical(d));
  // Untimed probes, after the last window closed (no clock, no allocation counting), each
  // mapped once and digested under its label: the entities with every 7th written under the
  // same id (a DTO kept by id shows the old one), then entities outside what the seeds make
  // (a mime type or size answered by a guess shows).
  const auto map_and_digest = [&](const char* label, const std::vector<dto_mapping::File>& fs,
                                  std::vector<dto_mapping::Folder> ds) {
    out.line(label);
    for (const auto& f : fs)
      out.line(
          dto_mapping::canonical(after ? dto_mapping::after::map_file(f, lies) : dto_mapping::before::map_file(f)));
    for (auto& f : ds)
      out.line(dto_mapping::canonical(after ? dto_mapping::after::map_folder(std::move(f), lies)
                                            : dto_mapping::before::map_folder(std::move(f))));
  };
  {
    auto edited_files = files;
    auto edited_folders = folders_template;
    dto_mapping::edit_every_seventh(edited_files, edited_folders);
    map_and_digest("# every 7th written under its id", edited_files, std::move(edited_folders));
  }
  map_and_digest("# outside the seed", dto_mapping::make_odd_files(), dto_mapping::make_odd_folders());

  const double file_rows = static_cast<double>(n_files * reps), folder_rows = static_cast<double>(n_folders * reps);
  perfgate::Report report;
  report.metric("map_cpu_ms", perfgate::ns_to_ms(file_ns + folder_ns), "ms")
      .metric("file_ns_per_row", static_cast<double>(file_ns) / file_rows, "ns")
      .metric("folder_ns_per_row", static_cast<double>(folder_ns) / folder_rows, "ns");
  // Per kind, measured inside: the file loops' share of the window's count. Only the counting
  // run has the counter; the harness keeps what only it reports (run/batch_runner.cpp).
  if (const long long total = perfgate_alloc_window_allocs(); total >= 0)
    report.metric("file_allocs_per_row", static_cast<double>(file_allocs) / file_rows, "count")
        .metric("folder_allocs_per_row", static_cast<double>(total - file_allocs) / folder_rows, "count");
  report.extra("files", n_files).extra("folders", n_folders).extra("reps", reps);
  report.extra("rows_mapped", (n_files + n_folders) * reps);
  return report.digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("dto_mapping").variants({"before", "after"}).run(run));
}
