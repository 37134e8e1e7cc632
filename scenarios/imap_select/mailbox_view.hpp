// What a session sees of a mailbox once it is selected, whichever variant built it: the
// numbers SELECT answers and, by sequence number, each message's UID and flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace imap_select {

// IMAP flags as bits: the system flags and the keywords the cache holds (SELECT's FLAGS
// lists these, as Dovecot lists the keywords its mailbox knows). The output order is this
// order (both variants format through it, so their answers can be byte-identical).
using FlagBits = std::uint16_t;
inline constexpr std::string_view kFlagNames[] = {"\\Answered", "\\Flagged",  "\\Deleted", "\\Seen",
                                                  "\\Draft",    "$Forwarded", "$Junk"};
inline constexpr FlagBits kSeen = 1u << 3;
inline constexpr FlagBits kDeleted = 1u << 2;
inline constexpr std::size_t kFlagCount = sizeof(kFlagNames) / sizeof(kFlagNames[0]);

// The bit of one flag name (system flags case-insensitively, keywords exactly); 0 if unknown.
FlagBits flag_bit(std::string_view name);
// Parses a space-separated flag list; unknown names are ignored (the cache keeps only these).
FlagBits parse_flags(std::string_view text);
// "\Flagged \Seen": the set in kFlagNames order, single spaces.
std::string format_flags(FlagBits bits);

// The numbers of a SELECT answer (RFC 3501 6.3.1, RFC 7162 3.1.2.1).
struct SelectState {
  std::uint32_t exists = 0;
  std::uint32_t recent = 0;
  std::uint32_t first_unseen = 0;  // sequence number; 0: every message is seen
  std::uint32_t uidvalidity = 0;
  std::uint32_t uidnext = 1;
  std::uint64_t highestmodseq = 0;
  bool operator==(const SelectState&) const = default;
};

class MailboxView {
 public:
  virtual ~MailboxView() = default;
  virtual const SelectState& state() const = 0;
  // seq0 is the sequence number minus one, < state().exists.
  virtual std::uint32_t uid(std::size_t seq0) const = 0;
  virtual FlagBits flags(std::size_t seq0) const = 0;
};

}  // namespace imap_select
