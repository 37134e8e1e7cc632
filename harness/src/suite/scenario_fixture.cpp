// What a scenario's rounds need before they start: its fixture (a seeded directory, or a
// PostgreSQL template and a clone of it) and, for a service, the plan of its load.
#include <algorithm>

#include "measure/host.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

void ScenarioRun::prepare_fixture() {
  const auto& m = sp.manifest;
  if (sp.commands()) return;  // `perfgate ab` runs two commands as they are
  if (m.fixture_kind == catalog::FixtureKind::Files || m.fixture_kind == catalog::FixtureKind::Sqlite) {
    status.update(prefix() + "seeding fixture");
    fixture = fixtures::prepare_directory_fixture(m, sp.profile, sp.seeder(), sp.params, sp.cpus, sp.timeout_s);
  } else if (m.fixture_kind == catalog::FixtureKind::Postgres) {
    prepare_postgres();
  }
}

// A template database seeded once (by `PROGRAM seed --target DSN`) and a fresh clone of it
// for this scenario's samples.
void ScenarioRun::prepare_postgres() {
  const auto& m = sp.manifest;
  fixtures::PgServer& server = pg->open(status);
  fixtures::FixtureInfo info;
  info.kind = catalog::FixtureKind::Postgres;
  info.digest = fixtures::fixture_digest(m, sp.profile, sp.params);
  const std::string tname = fixtures::template_name(m.name, sp.profile + ":" + info.digest);
  status.update(prefix() + "seeding template " + tname);
  auto seed = [&](const std::string& dsn) {
    fixtures::run_seeder(m, sp.profile, sp.seeder(), dsn, sp.params, sp.cpus, std::max(sp.timeout_s, 600.0), info);
  };
  bool reused = false;
  try {
    fixtures::ensure_template(server, tname, seed, &reused);
    info.location = fixtures::clone_database(server, tname, "pgrun_" + m.name);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw RunError(std::string("PostgreSQL fixture of ") + m.name + ": " + e.what());
  }
  info.reused = reused;
  fixture = info;
  result.postgres = model::PostgresInfo{server.describe(), server.server_version(), tname, server.throwaway()};
  if (!server.throwaway())
    result.notes.push_back(
        "PERFGATE_PG_DSN: an external server; its CPU (server_cpu_ms) is not measured, only the "
        "client's");
}

run::ServicePlan ScenarioRun::service_plan() const {
  const auto& m = sp.manifest;
  run::ServicePlan p;
  p.scenario = m.name;
  const auto& program = std::get<plan::ContractProgram>(sp.source);
  p.program = program.program;
  p.profile = sp.profile;
  p.fixture = fixture ? fixture->location : "";
  p.params = sp.params;
  p.load = m.profiles.at(sp.profile).load;
  p.service = m.service;
  p.workloads = m.workloads;
  p.server_cpus = sp.cpus;
  // The load generator on the CPUs the server does not use (the other core of two).
  for (int c : measure::allowed_cpus())
    if (std::find(sp.cpus.begin(), sp.cpus.end(), c) == sp.cpus.end()) p.load_cpus.push_back(c);
  if (p.load_cpus.empty()) p.load_cpus = sp.cpus;
  for (const auto& v : sp.variants) {
    p.args[v.name] = v.args;
    if (auto it = program.extra_args.find(v.name); it != program.extra_args.end())
      p.args[v.name].insert(p.args[v.name].end(), it->second.begin(), it->second.end());
    p.workload_of[v.name] = v.workload;
  }
  p.seed = rp.seed;
  return p;
}

}  // namespace perfgate::suite
