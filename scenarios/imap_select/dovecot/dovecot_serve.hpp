// `imap_select serve --variant dovecot`: the independent reference. A private Dovecot
// (Debian's dovecot-imapd; `dovecot -F` with a config of its own: base_dir, log file, a free
// loopback port, one passdb entry for the fixture's user) serving a Maildir of the fixture's
// INBOX (maildir.hpp). Prints {"listen": "127.0.0.1:PORT"} once Dovecot accepts connections and
// stops it at SIGTERM or SIGINT, leaving no process and no file behind.
#pragma once

#include "perfgate/sample.hpp"

namespace imap_select::dovecot {

int serve(const perfgate::Invocation& inv);

}  // namespace imap_select::dovecot
