// The request set a listing client makes, without ids: users, genres and studios by name, so
// the same file can be replayed against any server holding this library.
#include <string>
#include <utility>
#include <vector>

#include "seed.hpp"

namespace media_parity {

namespace {

std::string url_name(std::string s) {
  std::string out;
  for (char c : s) out += c == ' ' ? std::string("%20") : std::string(1, c);
  return out;
}

// A page start well inside a listing of n entries, on a page boundary.
int deep(int n) { return n * 3 / 5 / 50 * 50; }

}  // namespace

std::vector<std::pair<std::string, std::string>> request_set(const LibraryShape& s) {
  // user00 is the administrator (every library); user01 sees movies and shows, user02 shows and
  // music, user03 movies only, user04 all three without being an administrator.
  const std::string items = "/Items?Recursive=true&IncludeItemTypes=";
  const std::string genre = url_name(s.first_genre), studio = url_name(s.first_studio);
  std::vector<std::pair<std::string, std::string>> r = {
      {"movies-page-1", items + "Movie&SortBy=SortName&SortOrder=Ascending&StartIndex=0&Limit=50&UserId=user01"},
      {"movies-page-2", items + "Movie&SortBy=SortName&SortOrder=Ascending&StartIndex=50&Limit=50&UserId=user03"},
      {"movies-descending", items + "Movie&SortBy=SortName&SortOrder=Descending&Limit=50&UserId=user04"},
      {"movies-page-1-fields",
       items + "Movie&SortBy=SortName&SortOrder=Ascending&Limit=50&Fields=People,Overview,Genres&UserId=user00"},
      {"movies-fields-studios",
       items + "Movie&SortBy=SortName&Limit=24&Fields=Studios,Genres,MediaStreams&UserId=user03"},
      {"episodes-page-1", items + "Episode&SortBy=SortName&SortOrder=Ascending&Limit=50&UserId=user02"},
      {"episodes-deep-page", items + "Episode&SortBy=SortName&SortOrder=Ascending&StartIndex=" +
                                 std::to_string(deep(s.episodes)) + "&Limit=50&UserId=user01"},
      {"episodes-deep-page-fields", items + "Episode&SortBy=SortName&StartIndex=" + std::to_string(deep(s.episodes)) +
                                        "&Limit=50&Fields=People,Overview&UserId=user00"},
      {"series-with-overview", items + "Series&SortBy=SortName&Limit=50&Fields=Overview,Genres&UserId=user02"},
      {"unplayed-movies", items + "Movie&Filters=IsUnplayed&SortBy=SortName&Limit=50&UserId=user03"},
      {"played-movies", items + "Movie&Filters=IsPlayed&SortBy=SortName&Limit=50&UserId=user00"},
      {"played-descending",
       items + "Movie,Episode&Filters=IsPlayed&SortBy=DatePlayed&SortOrder=Descending&Limit=50&UserId=user04"},
      {"favorites", items + "Movie,Series,Episode&Filters=IsFavorite&SortBy=SortName&Limit=50&UserId=user01"},
      {"everything-by-date-added",
       items + "Movie,Episode&SortBy=DateCreated&SortOrder=Descending&Limit=50&UserId=user00"},
      {"movies-by-date-added",
       items + "Movie&SortBy=DateCreated&SortOrder=Descending&StartIndex=100&Limit=50&UserId=user03"},
      {"movies-in-genre", items + "Movie&Genres=" + genre + "&SortBy=SortName&Limit=50&Fields=Genres&UserId=user01"},
      {"movies-of-studio", items + "Movie&Studios=" + studio + "&SortBy=SortName&Limit=50&UserId=user04"},
      {"audio-page-1", items + "Audio&SortBy=SortName&Limit=100&UserId=user02"},
      {"albums", items + "MusicAlbum&SortBy=SortName&Limit=50&Fields=Genres&UserId=user04"},
      {"albums-by-date", items + "MusicAlbum&SortBy=DateCreated&SortOrder=Descending&Limit=50&UserId=user00"},
      {"latest", "/Items/Latest?Limit=16&UserId=user01"},
      {"latest-movies", "/Items/Latest?IncludeItemTypes=Movie&Limit=20&Fields=Overview&UserId=user03"},
      {"latest-music", "/Items/Latest?IncludeItemTypes=MusicAlbum&Limit=20&UserId=user02"},
      {"resume", "/UserItems/Resume?Limit=12&MediaTypes=Video&UserId=user01"},
      {"resume-admin", "/UserItems/Resume?Limit=12&MediaTypes=Video&Fields=Overview&UserId=user00"},
      {"persons-page-1", "/Persons?Limit=50&SortBy=SortName&UserId=user01"},
      {"persons-deep-page",
       "/Persons?Limit=50&SortBy=SortName&StartIndex=" + std::to_string(deep(s.persons)) + "&UserId=user00"},
      {"studios", "/Studios?Limit=50&SortBy=SortName&UserId=user03"},
      {"studios-tv", "/Studios?IncludeItemTypes=Series&Limit=50&SortBy=SortName&UserId=user02"},
      {"genres", "/Genres?Limit=50&SortBy=SortName&UserId=user00"},
      {"genres-movies", "/Genres?IncludeItemTypes=Movie&SortBy=SortName&UserId=user03"},
      {"genres-music", "/Genres?IncludeItemTypes=MusicAlbum&SortBy=SortName&UserId=user02"},
      {"artists", "/Artists?Limit=50&SortBy=SortName&UserId=user00"},
      {"artists-counts", "/Artists?Limit=50&SortBy=SortName&Fields=ItemCounts&UserId=user02"},
      {"artists-deep-page",
       "/Artists?Limit=50&SortBy=SortName&StartIndex=" + std::to_string(deep(s.artists)) + "&UserId=user04"},
      {"years", "/Years?SortBy=SortName&UserId=user00"},
      {"years-movies", "/Years?IncludeItemTypes=Movie&SortBy=SortName&SortOrder=Descending&UserId=user03"},
      {"counts-admin", "/Items/Counts?UserId=user00"},
      {"counts-movies-shows", "/Items/Counts?UserId=user01"},
      {"counts-shows-music", "/Items/Counts?UserId=user02"},
      {"counts-movies", "/Items/Counts?UserId=user03"},
      {"search-hints", "/Search/Hints?SearchTerm=a&Limit=20&UserId=user00"},
      {"search-hints-word", "/Search/Hints?SearchTerm=river&Limit=20&UserId=user02"},
      {"filters-movies", "/Items/Filters2?IncludeItemTypes=Movie&Recursive=true&UserId=user03"},
      {"filters-series", "/Items/Filters2?IncludeItemTypes=Series&Recursive=true&UserId=user02"},
      {"filters-everything", "/Items/Filters2?Recursive=true&UserId=user00"},
      {"views-admin", "/UserViews?UserId=user00"},
      {"views-shows-music", "/UserViews?UserId=user02"},
  };
  return r;
}

}  // namespace media_parity
