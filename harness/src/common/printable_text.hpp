// Bytes a program wrote, as text a message, a terminal and a JSON file can all hold. Outputs
// and stderr are bytes (gzip's, a Latin-1 line, a NUL): quoting them raw into a results file
// made the JSON writer throw, so every quote of a program's bytes goes through here.
#pragma once

#include <string>
#include <string_view>

namespace perfgate {

// Valid UTF-8 kept as it is; every byte that is not part of a valid UTF-8 sequence, and every
// control byte but tab and newline, written as \xNN. The result is always valid UTF-8.
std::string printable_text(std::string_view bytes);

}  // namespace perfgate
