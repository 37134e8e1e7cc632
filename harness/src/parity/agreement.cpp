#include "parity/agreement.hpp"

#include <algorithm>
#include <set>

namespace perfgate::parity {

namespace {

// A body under this share of the other's is hollow (the seed's server answered 31 bytes where
// the other answered kilobytes); small bodies are left alone, their sizes say little.
constexpr double kHollowShare = 0.25;
constexpr std::size_t kHollowMinBytes = 256;

json parsed(const Answer& a) { return json::parse(a.body, nullptr, false); }

// The must-match counters of a listing body ({"Items": [...], "TotalRecordCount": n}).
void listing(const json& ja, const json& jb, std::vector<std::string>& out) {
  if (!ja.is_object() || !jb.is_object()) return;
  auto value = [](const json& j, const char* k) { return j.contains(k) ? j[k] : json(); };
  if (value(ja, "TotalRecordCount") != value(jb, "TotalRecordCount")) out.push_back("TotalRecordCount");
  const json ia = value(ja, "Items"), ib = value(jb, "Items");
  if (ia.is_array() != ib.is_array() || (ia.is_array() && ia.size() != ib.size())) out.push_back("len(Items)");
}

}  // namespace

AnswerDiff compare_answers(const Answer& a, const Answer& b, const VolatileKeys& keys, const Sides& sides) {
  AnswerDiff d;
  if (a.status != b.status) d.must_match.push_back("status");
  const json ja = parsed(a), jb = parsed(b);
  if (!ja.is_discarded() && !jb.is_discarded()) {
    d.diff = diff_json(ja, jb, keys, sides);
    listing(ja, jb, d.must_match);
    for (const auto& e : d.diff.empty_vs_items)
      d.hollow.push_back((e.find("empty on " + sides.a + ",") != std::string::npos ? sides.a : sides.b) + ": " + e);
  } else {
    // Not JSON on at least one side: the bytes are the answer.
    d.diff.leaves = 1;
    if (a.body != b.body) {
      d.diff.fields["(body)"] = 1;
      d.diff.example["(body)"] = std::to_string(a.body.size()) + " bytes on " + sides.a + ", " +
                                 std::to_string(b.body.size()) + " bytes on " + sides.b +
                                 (ja.is_discarded() != jb.is_discarded() ? " (one is not JSON)" : "");
    }
  }
  const auto small = std::min(a.body.size(), b.body.size()), large = std::max(a.body.size(), b.body.size());
  if (large >= kHollowMinBytes && static_cast<double>(small) < kHollowShare * static_cast<double>(large))
    d.hollow.push_back((a.body.size() < b.body.size() ? sides.a : sides.b) + ": body " + std::to_string(small) +
                       " bytes, the other's " + std::to_string(large));
  return d;
}

Agreement judge(const std::vector<Quad>& quads, const VolatileKeys& keys, const Sides& sides) {
  Agreement out;
  std::vector<AnswerDiff> across;
  for (const auto& q : quads) {
    across.push_back(compare_answers(q.a, q.b, keys, sides));
    for (const auto& [f, _] : across.back().diff.fields) ++out.fields[f].across;
    for (const auto& [f, _] : compare_answers(q.a, q.a2, keys).diff.fields) ++out.fields[f].within_a;
    for (const auto& [f, _] : compare_answers(q.b, q.b2, keys).diff.fields) ++out.fields[f].within_b;
  }
  for (std::size_t i = 0; i < quads.size(); ++i) {
    const auto& q = quads[i];
    const auto& d = across[i];
    RequestVerdict v;
    v.path = q.path;
    v.leaves = d.diff.leaves;
    v.status_a = q.a.status;
    v.status_b = q.b.status;
    v.bytes_a = q.a.body.size();
    v.bytes_b = q.b.body.size();
    v.statements_a = q.a.statements;
    v.statements_b = q.b.statements;
    v.fields = d.must_match;
    for (const auto& [f, _] : d.diff.fields)
      if (out.fields[f].blamed()) {
        v.fields.push_back(f);
        if (v.example.empty()) v.example = f + ": " + d.diff.example.at(f);
      }
    v.hollow = d.hollow;
    if (q.a.status == 0 || q.b.status == 0)
      v.hollow.push_back("no answer: " + (q.a.status == 0 ? sides.a + " " + q.a.error : sides.b + " " + q.b.error));
    v.agreed = v.fields.empty() && v.hollow.empty();
    if (v.agreed) out.leaves_agreeing += v.leaves;
    out.requests.push_back(std::move(v));
  }
  return out;
}

std::vector<std::string> Agreement::agreeing_paths() const {
  std::vector<std::string> out;
  for (const auto& r : requests)
    if (r.agreed) out.push_back(r.path);
  return out;
}

std::size_t Agreement::dropped() const {
  return static_cast<std::size_t>(std::count_if(requests.begin(), requests.end(), [](auto& r) { return !r.agreed; }));
}

std::size_t Agreement::hollow() const {
  return static_cast<std::size_t>(
      std::count_if(requests.begin(), requests.end(), [](auto& r) { return !r.hollow.empty(); }));
}

double Agreement::dropped_share() const {
  return requests.empty() ? 1.0 : static_cast<double>(dropped()) / static_cast<double>(requests.size());
}

json Agreement::to_json() const {
  json dropped_list = json::array(), noise = json::object(), blamed = json::object();
  for (const auto& r : requests) {
    if (r.agreed) continue;
    json e = {{"path", r.path},
              {"fields", r.fields},
              {"not_doing_the_work", r.hollow},
              {"status", {r.status_a, r.status_b}},
              {"bytes", {r.bytes_a, r.bytes_b}}};
    if (!r.example.empty()) e["example"] = r.example;
    dropped_list.push_back(e);
  }
  for (const auto& [f, n] : fields)
    (n.blamed() ? blamed : noise)[f] = {{"across", n.across}, {"within_a", n.within_a}, {"within_b", n.within_b}};
  std::uint64_t leaves = 0;
  for (const auto& r : requests) leaves += r.leaves;
  return {{"requests", requests.size()},
          {"agreeing", requests.size() - dropped()},
          {"dropped", dropped()},
          {"not_doing_the_work", hollow()},
          {"dropped_share", dropped_share()},
          {"leaves_compared", leaves},
          {"leaves_compared_agreeing", leaves_agreeing},
          {"dropped_requests", dropped_list},
          {"blamed_fields", blamed},
          {"noise_fields", noise}};
}

}  // namespace perfgate::parity
