// The API routes (Jellyfin's listing API, the parts a listing client reads). Each answers the
// DTO for one request or throws HttpError; both variants answer byte-identical JSON.
#pragma once

#include "db.hpp"
#include "request.hpp"

namespace media_parity {

using Handler = Json (*)(Connection&, const Request&, const ServeOptions&);

// routes_items.cpp
Json items(Connection& db, const Request& q, const ServeOptions& o);         // /Items
Json latest(Connection& db, const Request& q, const ServeOptions& o);        // /Items/Latest
Json resume(Connection& db, const Request& q, const ServeOptions& o);        // /UserItems/Resume
Json search_hints(Connection& db, const Request& q, const ServeOptions& o);  // /Search/Hints
// routes_by_name.cpp
Json persons(Connection& db, const Request& q, const ServeOptions& o);  // /Persons
Json genres(Connection& db, const Request& q, const ServeOptions& o);   // /Genres
Json studios(Connection& db, const Request& q, const ServeOptions& o);  // /Studios
Json artists(Connection& db, const Request& q, const ServeOptions& o);  // /Artists
// routes_summary.cpp
Json years(Connection& db, const Request& q, const ServeOptions& o);       // /Years
Json filters(Connection& db, const Request& q, const ServeOptions& o);     // /Items/Filters2
Json counts(Connection& db, const Request& q, const ServeOptions& o);      // /Items/Counts
Json user_views(Connection& db, const Request& q, const ServeOptions& o);  // /UserViews

// The handler of an exact path (no query string); nullptr when there is none.
Handler route(const std::string& path);

}  // namespace media_parity
