// The bytes of the proxy's answers that the equivalence gate compares: SELECT/EXAMINE and
// FETCH of UID/FLAGS. Both variants answer through these functions.
#pragma once

#include <string>
#include <vector>

#include "mailbox_view.hpp"

namespace imap_select {

// SELECT's first untagged line, "* FLAGS (...)" with CRLF: every flag the proxy knows, the same
// for every mailbox.
std::string flags_line();

// The untagged lines and the tagged OK of SELECT (read_only: EXAMINE), CRLF-terminated.
std::string select_response(const SelectState& s, bool read_only, const std::string& tag);

// One "* N FETCH (...)" line (CRLF included) for sequence number seq (1-based).
void append_fetch_line(std::string& out, const MailboxView& view, std::size_t seq, bool with_uid, bool with_flags);

}  // namespace imap_select
