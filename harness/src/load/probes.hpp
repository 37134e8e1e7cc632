// perfgate::load probes — a service's untimed questions, asked once per sample after the
// measured window (service.probes, docs/scenario-contract.md "Service scenarios").
//
//   auto probes = Probes::from_lines(read_lines(fixture + "/probes.txt"));
//   ask_probes(port, probes, book);   // each answer booked like a window's (exit 3 on a difference)
//
// A probe line is a path ("/assets/x/9.9.9/a.js") or a method and a path ("POST /assets/x");
// blank lines and lines starting with '#' are skipped. Each answer (status, the meaningful
// headers and body) is booked in the scenario's ResponseBook under the path, or under
// "METHOD path" for a method other than GET, so BEFORE and AFTER must answer every probe alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/response_book.hpp"

namespace perfgate::load {

struct Probe {
  std::string method = "GET", path;
  std::string key() const { return method == "GET" ? path : method + " " + path; }
};

// Throws std::invalid_argument naming the line when a line is not "[METHOD] /path".
std::vector<Probe> parse_probes(const std::vector<std::string>& lines);
// The lines of a probe file; throws std::runtime_error when it is unreadable.
std::vector<std::string> read_probe_file(const std::string& file);

// Asks every probe once, in order, each on a connection of its own to 127.0.0.1:port, and
// books its answer (a transport error as status 0). Throws std::runtime_error on a timeout.
void ask_probes(std::uint16_t port, const std::vector<Probe>& probes, ResponseBook& book, double timeout_s = 5);

}  // namespace perfgate::load
