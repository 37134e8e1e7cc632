// `imap_select load --phase NAME ... --target HOST:PORT [--targets H:P,H:P,...]`: one phase of
// the workload against the served proxies (or Dovecot), over real IMAP sockets.
//
//   agree   the writer frozen at operation 0 (the fixture's state, what Dovecot serves) and at
//           operation `agree_writer_ops`: SELECT, EXAMINE, FETCH 1:* (UID FLAGS), UID FETCH;
//           the digest covers every answer line, extra.semantic the view Dovecot is compared on
//   warm    `warm_selects` SELECTs, writer running (caches, page cache; not claimed)
//   serial  `serial_selects` SELECTs one after another, writer running: select_p50_ms, select_p95_ms,
//           select_total_ms (the series' sum)
//   burst   `burst_clients` logged-in clients SELECT at once, `burst_rounds` times:
//           largest_select_ms, select_p50_ms, largest_select_total_ms (each round's largest, summed)
// Every SELECT's duration is client-side: from sending the command to its tagged OK. The sums
// are held to the harness's own wall of the phase (scenario.json self_reported).
#pragma once

#include "perfgate/sample.hpp"

namespace imap_select {

perfgate::Report run_phase(const perfgate::Invocation& inv);

}  // namespace imap_select
