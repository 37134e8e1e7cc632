// carddav_report: the scenario contract around the REPORT handlers (the SDK does the plumbing).
//   run: build the `contacts` address book (deterministic), answer the REPORT for each prop set
//   (getetag; getetag + address-data) `reps` times with the variant's handler, timing only the
//   handler on this thread's CPU clock. The digest covers every line of both multistatus
//   documents of the last repetition, then, untimed, of one REPORT per prop set over the book
//   after a few writes (carddav.hpp edit_book).
//   Lies (carddav.hpp's Lies): --lie drop-last-contact|skip-note-lines|empty-getetag|
//   memoized-report.
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "carddav.hpp"
#include "perfgate/outside_window.hpp"
#include "perfgate/scenario_main.hpp"
#include "perfgate/thread_cpu.hpp"

namespace {

perfgate::Report run(const perfgate::Invocation& inv) {
  using carddav_report::PropSet;
  const auto n = inv.param<std::size_t>("contacts");
  const auto reps = inv.param<std::size_t>("reps", 1);
  if (n == 0 || reps == 0) throw std::invalid_argument("params contacts and reps must be > 0");
  const bool after = inv.variant == "after";
  carddav_report::Lies lies;
  lies.drop_last_contact = inv.lying("drop-last-contact");
  lies.skip_note_lines = inv.lying("skip-note-lines");
  lies.empty_getetag = inv.lying("empty-getetag");
  lies.memoized_report = inv.lying("memoized-report");
  const auto contacts = carddav_report::make_contacts(n);

  perfgate::Report report;
  perfgate::Digest work;
  perfgate::OutputLog out(work);
  const auto digest_xml = [&out](const std::string& label, const std::string& xml) {
    out.line(label);
    for (std::size_t pos = 0; pos < xml.size();) {
      const std::size_t nl = xml.find('\n', pos);
      const std::size_t end = nl == std::string::npos ? xml.size() : nl;
      out.line(std::string_view(xml).substr(pos, end - pos));
      pos = end + 1;
    }
  };
  const bool worker_thread = inv.lying("worker-thread");
  const auto handle = [&](const std::vector<carddav_report::Contact>& book, PropSet props) {
    if (worker_thread) {  // the lie: rendered on a thread this one's CPU clock does not see
      std::string xml;
      std::thread([&] { xml = carddav_report::after::handle_report(book, props, lies); }).join();
      return xml;
    }
    return after ? carddav_report::after::handle_report(book, props, lies)
                 : carddav_report::before::handle_report(book, props);
  };
  constexpr std::pair<PropSet, const char*> kPropSets[] = {{PropSet::GetEtag, "getetag_ms"},
                                                           {PropSet::GetEtagAddressData, "address_data_ms"}};
  double total_ms = 0;
  for (const auto& [props, metric] : kPropSets) {
    std::string xml;
    std::int64_t ns = 0;
    {
      // perfgate reads the cgroup's CPU where the timed REPORTs begin and end (self_reported).
      perfgate::OutsideWindow window("reports");
      for (std::size_t rep = 0; rep < reps; ++rep)
        xml = perfgate::add_thread_cpu(ns, [&] { return handle(contacts, props); });
    }
    const double ms = perfgate::ns_to_ms(ns) / static_cast<double>(reps);
    report.metric(metric, ms, "ms");
    total_ms += ms;
    digest_xml(std::string("# prop set ") + metric, xml);
    report.extra(std::string(metric) + "_xml_bytes", xml.size());
  }
  // Untimed, after every timed REPORT: the book after a few writes (three contacts edited
  // under their uid, one deleted, one added), one REPORT per prop set, digested beside the
  // others. A response kept across REPORTs would answer the old etag, FN and NOTE.
  const auto edited = carddav_report::edit_book(contacts);
  for (const auto& [props, metric] : kPropSets)
    digest_xml(std::string("# after edits, prop set ") + metric, handle(edited, props));
  report.metric("report_cpu_ms", total_ms, "ms");
  report.extra("contacts", n).extra("reps", reps);
  return report.digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("carddav_report").variants({"before", "after"}).run(run));
}
