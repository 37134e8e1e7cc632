// carddav_report: the scenario contract around the REPORT handlers (the SDK does the plumbing).
//   run: build the `contacts` address book (deterministic), answer the REPORT for each prop set
//   (getetag; getetag + address-data) `reps` times with the variant's handler, timing only the
//   handler on this thread's CPU clock. The digest covers every line of both multistatus
//   documents of the last repetition.
//   Lies (carddav.hpp's Lies): --lie drop-last-contact|skip-note-lines|empty-getetag.
#include <string>
#include <string_view>

#include "carddav.hpp"
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
  const auto contacts = carddav_report::make_contacts(n);

  perfgate::Report report;
  perfgate::Digest work;
  perfgate::OutputLog out(work);
  double total_ms = 0;
  for (const auto& [props, metric] :
       {std::pair{PropSet::GetEtag, "getetag_ms"}, std::pair{PropSet::GetEtagAddressData, "address_data_ms"}}) {
    std::string xml;
    std::int64_t ns = 0;
    for (std::size_t rep = 0; rep < reps; ++rep)
      xml = perfgate::add_thread_cpu(ns, [&] {
        return after ? carddav_report::after::handle_report(contacts, props, lies)
                     : carddav_report::before::handle_report(contacts, props);
      });
    const double ms = perfgate::ns_to_ms(ns) / static_cast<double>(reps);
    report.metric(metric, ms, "ms");
    total_ms += ms;
    out.line(std::string("# prop set ") + metric);
    for (std::size_t pos = 0; pos < xml.size();) {
      const std::size_t nl = xml.find('\n', pos);
      const std::size_t end = nl == std::string::npos ? xml.size() : nl;
      out.line(std::string_view(xml).substr(pos, end - pos));
      pos = end + 1;
    }
    report.extra(std::string(metric) + "_xml_bytes", xml.size());
  }
  report.metric("report_cpu_ms", total_ms, "ms");
  report.extra("contacts", n).extra("reps", reps);
  return report.digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("carddav_report").variants({"before", "after"}).run(run));
}
