// The agreement phase's untimed probes after its writer part (the proxies only: Dovecot has no
// writer, words its refusals its own way and is compared on the fixture's state). Each answer
// line goes to the phase's digest, so BEFORE and AFTER must answer them alike.
//
//   refusals     a fresh connection: SELECT and FETCH before LOGIN, LOGIN with a wrong password,
//                LOGIN of an unknown user, SELECT again (BAD, NO [AUTHENTICATIONFAILED])
//   bad_inputs   SELECT NoSuchBox (NO [NONEXISTENT]), FETCH with nothing selected (BAD),
//                SELECT INBOX then FETCH 1:<EXISTS+1> (BAD) and UID FETCH of BODY[] (BAD)
//   cache_rows   the writer parked: the server's private mail.sqlite (its path from XWRITER
//                STATUS) opened read-only, the INBOX's mailbox row and message rows digested:
//                the writer's commits are in the cache, not only in what SELECT answers
//   race         the writer running: `sessions` connections repeat SELECT INBOX and
//                FETCH 1:* (UID FLAGS) for `ms` milliseconds, each answer checked against
//                itself (FETCH lines = EXISTS, UIDs ascending below UIDNEXT, UNSEEN the first
//                unseen sequence number); the first mismatch, or "" when none
#pragma once

#include <string>

#include "imap_client.hpp"
#include "perfgate/sample.hpp"

namespace imap_select {

void refusals(const std::string& target, perfgate::OutputLog& log);
void bad_inputs(ImapClient& c, perfgate::OutputLog& log);
void cache_rows(ImapClient& c, perfgate::OutputLog& log);

struct RaceResult {
  std::string mismatch;  // empty: every answer agreed with itself
  std::size_t rounds = 0;
};
RaceResult race(const std::string& target, int sessions, double ms);

}  // namespace imap_select
