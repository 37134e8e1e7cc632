// __NAME__: the scenario contract around the work (the SDK does the plumbing: seed/run dispatch,
// unknown variants and lies refused with exit 2, the report printed as the last line).
//   run --variant before|after: makes the input from the profile's params, answers every query
//   with that variant's code and reports the time. The digest covers every answer, each also a
//   line of $PERFGATE_OUTPUT so that a mismatch names the first differing answer.
//   Lies (work.hpp's Lies): --lie first-match-only|skip-empty|no-size.
#include "perfgate/scenario_main.hpp"
#include "work.hpp"

namespace {

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto input = __NAME__::make_input(__NAME__::params_from(inv));
  perfgate::Stopwatch clock;  // the work only: making the input is the same for both variants
  const auto answers =
      inv.variant == "after"
          ? __NAME__::answer_all(__NAME__::After(input.records, __NAME__::lies_from(inv)), input.queries)
          : __NAME__::answer_all(__NAME__::Before(input.records), input.queries);
  const double answer_ms = clock.ms();
  perfgate::Digest work;
  perfgate::OutputLog out(work);
  for (const auto& a : answers) out.line(a);
  return perfgate::Report()
      .metric("answer_ms", answer_ms, "ms")
      .count("answers", static_cast<double>(answers.size()))
      .digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) { return perfgate::scenario_main(argc, argv, __NAME__::program().run(run)); }
