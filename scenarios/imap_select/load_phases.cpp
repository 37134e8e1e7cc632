#include "load_phases.hpp"

#include <algorithm>
#include <latch>
#include <stdexcept>
#include <thread>

#include "agree_probes.hpp"
#include "dovecot/semantic_select.hpp"
#include "imap_client.hpp"
#include "mail_db.hpp"

namespace imap_select {

namespace {

using perfgate::Report;

std::vector<std::string> targets_of(const perfgate::Invocation& inv) {
  std::vector<std::string> out;
  std::string list = inv.flag("targets", inv.target);
  for (std::size_t start = 0; start <= list.size();) {
    const auto comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  if (out.empty()) throw std::invalid_argument("load needs --target HOST:PORT");
  return out;
}

std::unique_ptr<ImapClient> logged_in(const std::string& target) {
  auto c = std::make_unique<ImapClient>(target);
  c->login(kUser, kPassword);
  return c;
}

// The proxies' writer; Dovecot has none (it answers BAD to XWRITER).
bool has_writer(const perfgate::Invocation& inv) { return inv.variant != "dovecot"; }

ImapAnswer writer(ImapClient& c, const std::string& what) {
  ImapAnswer a = c.command("XWRITER " + what);
  if (!a.ok()) throw std::runtime_error("XWRITER " + what + ": " + a.tagged);
  return a;
}

// A proxy that sends SELECT's first line before reading the mailbox (the lie "early-stop-clock",
// proxy.hpp) says so in its XWRITER answer.
bool streams_select(const ImapAnswer& writer_answer) {
  return !writer_answer.untagged.empty() && writer_answer.untagged[0].find(" STREAMS SELECT ") != std::string::npos;
}

// From sending SELECT to its tagged OK; to_first_line (the lie "early-stop-clock"): to the
// answer's first line.
double timed_select(ImapClient& c, bool to_first_line = false) {
  perfgate::Stopwatch clock;
  double first = 0;
  const ImapAnswer a =
      to_first_line ? c.command("SELECT INBOX", [&] { first = clock.ms(); }) : c.command("SELECT INBOX");
  const double ms = clock.ms();
  if (!a.ok()) throw std::runtime_error("SELECT INBOX: " + a.tagged);
  return to_first_line ? first : ms;
}

double sum(const std::vector<double>& v) {
  double total = 0;
  for (const double x : v) total += x;
  return total;
}

std::vector<std::string> with_tagged(const ImapAnswer& a) {
  std::vector<std::string> lines = a.untagged;
  lines.push_back(a.tagged);
  return lines;
}

Report agree(const perfgate::Invocation& inv, const std::vector<std::string>& targets) {
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  Report r;
  const auto ops = inv.param<std::uint64_t>("agree_writer_ops", 400);
  std::size_t fetched = 0, race_rounds = 0;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    auto c = logged_in(targets[t]);
    auto record = [&](const std::string& state, const std::string& command) {
      const ImapAnswer a = c->command(command);
      if (!a.ok()) throw std::runtime_error(command + ": " + a.tagged);
      for (const auto& line : with_tagged(a)) log.line(state + " " + line);
      return a;
    };
    if (has_writer(inv)) writer(*c, "STEP 0");
    const ImapAnswer select = record("fixture", "SELECT INBOX");
    const ImapAnswer fetch = record("fixture", "FETCH 1:* (UID FLAGS)");
    fetched += fetch.untagged.size();
    if (t == 0) r.extra("semantic", semantic_view(with_tagged(select), fetch.untagged));
    if (!has_writer(inv)) continue;
    writer(*c, "STEP " + std::to_string(ops));
    const std::string state = "writer@" + std::to_string(ops);
    record(state, "SELECT INBOX");
    fetched += record(state, "FETCH 1:* (UID FLAGS)").untagged.size();
    record(state, "EXAMINE INBOX");
    record(state, "UID FETCH 1:* (FLAGS)");
    // Another mailbox of the same user: an index keyed by anything less than the mailbox
    // answers it with the INBOX's state.
    record("other", "SELECT Sent");
    record("other", "FETCH 1:* (UID FLAGS)");
    // Untimed probes (agree_probes.hpp): bad inputs, the cache's rows with the writer still
    // parked, refused callers, then SELECT racing the writer's commits.
    bad_inputs(*c, log);
    cache_rows(*c, log);
    refusals(targets[t], log);
    writer(*c, "RUN");
    const RaceResult raced = race(targets[t], inv.param<int>("race_sessions", 12), inv.param<double>("race_ms", 1000));
    if (!raced.mismatch.empty()) r.not_equivalent("SELECT racing the writer: " + raced.mismatch);
    log.line("race: every SELECT INBOX agreed with its FETCH 1:* (UID FLAGS)");
    race_rounds += raced.rounds;
  }
  r.extra("writer_ops_at_second_pass", ops).extra("targets", targets.size()).extra("race_rounds", race_rounds);
  r.metric("fetched_messages", static_cast<double>(fetched), "messages");
  return r.digest(digest.hex());
}

Report selects(const perfgate::Invocation& inv, const std::vector<std::string>& targets, int n) {
  std::vector<std::unique_ptr<ImapClient>> clients;
  std::vector<bool> early;  // per client: its proxy streams SELECT (a lie)
  for (const auto& t : targets) {
    clients.push_back(logged_in(t));
    // The writer stays busy through every timed phase.
    early.push_back(has_writer(inv) && streams_select(writer(*clients.back(), "RUN")));
  }
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i) % clients.size();
    ms.push_back(timed_select(*clients[k], early[k]));
  }
  Report r;
  // select_total_ms: the series' sum, held to the phase's wall (scenario.json self_reported).
  r.metric("select_p50_ms", perfgate::percentile(ms, 0.5), "ms")
      .metric("select_p95_ms", perfgate::percentile(ms, 0.95), "ms")
      .metric("select_total_ms", sum(ms), "ms");
  return r.series("select_ms", ms, "ms");
}

Report burst(const perfgate::Invocation& inv, const std::vector<std::string>& targets) {
  const int clients_n = inv.param<int>("burst_clients", 12);
  const int rounds = inv.param<int>("burst_rounds", 1);
  std::vector<std::unique_ptr<ImapClient>> clients;
  std::vector<bool> early;               // per target: its proxy streams SELECT (a lie)
  for (int i = 0; i < clients_n; ++i) {  // spread evenly over the workers, logged in before the burst
    clients.push_back(logged_in(targets[static_cast<std::size_t>(i) % targets.size()]));
    if (i < static_cast<int>(targets.size()))
      early.push_back(has_writer(inv) && streams_select(writer(*clients.back(), "RUN")));
  }
  std::vector<double> all;
  double largest_total = 0;  // each round's largest SELECT, summed: the rounds run one after another
  for (int round = 0; round < rounds; ++round) {
    std::vector<double> ms(clients.size());
    std::vector<std::string> errors(clients.size());
    std::latch start(static_cast<std::ptrdiff_t>(clients.size()));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < clients.size(); ++i)
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        try {
          ms[i] = timed_select(*clients[i], early[i % early.size()]);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    for (auto& t : threads) t.join();
    for (const auto& e : errors)
      if (!e.empty()) throw std::runtime_error("burst client: " + e);
    all.insert(all.end(), ms.begin(), ms.end());
    largest_total += *std::max_element(ms.begin(), ms.end());
  }
  Report r;
  r.metric("largest_select_ms", *std::max_element(all.begin(), all.end()), "ms");
  r.metric("largest_select_total_ms", largest_total, "ms");  // held to the phase's wall (self_reported)
  r.metric("select_p50_ms", perfgate::percentile(all, 0.5), "ms");
  return r.series("select_ms", all, "ms");
}

}  // namespace

Report run_phase(const perfgate::Invocation& inv) {
  const std::string phase = inv.flag("phase");
  const auto targets = targets_of(inv);
  if (phase == "agree") return agree(inv, targets);
  if (phase == "warm") return selects(inv, targets, inv.param<int>("warm_selects", 3));
  if (phase == "serial") return selects(inv, targets, inv.param<int>("serial_selects", 20));
  if (phase == "burst") return burst(inv, targets);
  throw std::invalid_argument("unknown --phase '" + phase + "': expected agree, warm, serial or burst");
}

}  // namespace imap_select
