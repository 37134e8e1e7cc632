// The deterministic mail cache: one user, three connected accounts, their mailboxes and
// messages; the primary account's INBOX is the mailbox under test.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace imap_select {

struct SeedParams {
  std::int64_t messages = 10001;      // in the INBOX under test
  std::int64_t other_messages = 300;  // in every other mailbox
  std::uint64_t seed = 4;             // same params, same bytes
  // Reads a profile's params ({"messages": 100000, ...}); absent keys keep the defaults,
  // keys the seeder does not know are left to the other commands.
  static SeedParams from_json(const nlohmann::json& params);
};

// Writes DIR/mail.sqlite (WAL; DIR is created if needed; an existing cache is replaced).
// Returns the seeder's figures: {"messages", "inbox_messages", "mailboxes", "accounts", "bytes"}.
nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir);

// IMAP's date-time for a Unix time: "17-Jul-2026 02:44:25 +0000".
std::string imap_date(std::int64_t unix_seconds);

}  // namespace imap_select
