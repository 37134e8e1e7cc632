// What an IMAP SELECT means, independent of how a server words it: the view the proxy and
// Dovecot are compared on (docs of issue 15). EXISTS, the first unseen sequence number,
// UIDVALIDITY, UIDNEXT, FLAGS and PERMANENTFLAGS as sets, and every message's UID and flags
// (a set, \Recent left out: it belongs to the session, not the mailbox). Untagged line order,
// the text after `]`, RECENT and HIGHESTMODSEQ (Dovecot keeps its own modseqs and sends
// them only to a CONDSTORE client) are not part of it.
#pragma once

#include <string>
#include <vector>

namespace imap_select {

// `select_lines`: the SELECT's untagged lines and its tagged completion; `fetch_lines`: the
// untagged lines of `FETCH 1:* (UID FLAGS)`. Lines may carry the "* " prefix and CRLF.
// Returns one line, e.g. "EXISTS=10001 UNSEEN=4 UIDVALIDITY=1 UIDNEXT=10002
// FLAGS=(\Answered \Deleted ...) PERMANENTFLAGS=(...) MESSAGES=10001/<xxh128 of uid:flags lines>".
// Throws std::runtime_error naming the line it could not read.
std::string semantic_view(const std::vector<std::string>& select_lines, const std::vector<std::string>& fetch_lines);

}  // namespace imap_select
