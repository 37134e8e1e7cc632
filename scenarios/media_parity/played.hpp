// The one write the server takes: Jellyfin's "mark played" (PlaystateController.MarkPlayedItem),
//
//   POST /Users/{UserId}/PlayedItems/{ItemId}[?datePlayed=2024-06-01T12:00:00.0000000Z]
//
// The user's UserData row for the item gets Played = 1, PlayCount + 1 when datePlayed is given
// (at least 1 otherwise), PlaybackPositionTicks = 0, LastPlayedDate = datePlayed (else the one it
// had, else now), as BaseItem.MarkPlayed sets them; the answer is the row's UserItemDataDto.
// The user is resolved as ?UserId= is (400, 404, 403 when disabled); an item outside the user's
// libraries is 404. Written in one transaction on the pool's private copy of the library, never
// on the fixture; both variants write it alike.
#pragma once

#include <string>

#include "db.hpp"
#include "request.hpp"
#include "server.hpp"

namespace media_parity {

// The route's name in /_stats.
inline constexpr const char* kPlayedRoute = "/Users/{UserId}/PlayedItems/{ItemId}";

// Whether `path` (no query string) is /Users/{UserId}/PlayedItems/{ItemId}.
bool is_played_path(const std::string& path);

// A POST: mark played, or 405 on a GET route, or 404.
Answer answer_post(Pool& pool, const std::string& target, const ServeOptions& options);

}  // namespace media_parity
