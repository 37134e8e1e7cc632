// media_parity: `seed` builds the Jellyfin-shaped SQLite library and its request set, `serve`
// runs the media server (a service scenario: the harness drives `serve` with its load).
#include "perfgate/scenario_main.hpp"
#include "seed.hpp"
#include "server.hpp"

namespace {

perfgate::json seed(const perfgate::Invocation& inv) {
  perfgate::Stopwatch clock;
  auto figures = media_parity::seed_fixture(media_parity::SeedParams::from_json(inv.params), inv.target);
  figures["seconds"] = clock.ms() / 1000.0;
  return figures;
}

int serve(const perfgate::Invocation& inv) {
  media_parity::ServerOptions o;
  o.fixture_dir = inv.fixture;
  if (o.fixture_dir.empty()) throw std::invalid_argument("serve needs --fixture DIR (made by `media_parity seed`)");
  o.listen = inv.listen;
  o.answers.after = inv.variant == "after";
  o.answers.fill_people = inv.has("test-fill-people");
  o.answers.empty_lists = inv.has("test-empty-lists");
  o.answers.lie_no_people = inv.lying("no-people");
  o.answers.lie_stale_counts = inv.lying("stale-counts");
  o.answers.lie_no_tiebreak = inv.lying("no-tiebreak");
  o.answers.lie_total_from_page = inv.lying("total-from-page");
  o.answers.lie_all_folders = inv.lying("all-folders");
  o.answers.lie_default_user = inv.lying("default-user");
  o.answers.lie_ignore_disabled = inv.lying("ignore-disabled");
  o.answers.lie_precompute_libraries = inv.lying("precompute-libraries");
  o.answers.lie_played_cache = inv.lying("played-cache");
  o.answers.lie_prepared_count = inv.lying("prepared-count");
  for (const auto& [name, value] : inv.flags)
    if (name != "test-fill-people" && name != "test-empty-lists")
      throw std::invalid_argument("unknown flag --" + name + " (serve takes --test-fill-people, --test-empty-lists)");
  return media_parity::serve(o);
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(
      argc, argv, perfgate::ScenarioProgram("media_parity").variants({"before", "after"}).seed(seed).serve(serve));
}
