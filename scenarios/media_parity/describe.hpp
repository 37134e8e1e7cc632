// A page of items turned into Jellyfin's BaseItemDto: the item's own columns plus what is
// stored beside it (user data, images, and the Fields asked for: People, Genres, Studios,
// MediaStreams). How those are read is the write-up's largest per-page difference: BEFORE one
// statement per item per aspect, AFTER one statement per aspect for the whole page.
#pragma once

#include <string>
#include <vector>

#include "db.hpp"
#include "request.hpp"

namespace media_parity {

// Every item query selects these columns of BaseItems b, in this order (read_item reads them).
inline constexpr const char* kItemColumns =
    "b.Id, b.Type, b.Name, b.SortName, b.SeriesId, b.SeasonId, b.SeriesName, b.Album, b.AlbumArtists, "
    "b.DateCreated, b.PremiereDate, b.ProductionYear, b.CommunityRating, b.OfficialRating, b.RunTimeTicks, "
    "b.Overview, b.IsFolder, b.MediaType, b.IndexNumber, b.ParentIndexNumber, b.CollectionType";

struct ItemRow {
  std::string id, type, name, sort_name, series_id, season_id, series_name, album, album_artists, created, premiere,
      rating, overview, media_type, collection;
  long long year = 0, runtime = 0, index = 0, parent_index = 0;
  double community = 0;
  bool folder = false;
};
ItemRow read_item(const Row& r);

// The columns a UserItemDataDto is read from, from UserData (read_user_data reads them).
inline constexpr const char* kUserDataColumns =
    "ItemId, Played, PlayCount, IsFavorite, PlaybackPositionTicks, LastPlayedDate, CustomDataKey";
// Jellyfin's UserItemDataDto of one UserData row.
Json read_user_data(const Row& r);

// Which optional parts a DTO carries.
struct Wanted {
  bool overview = false, people = false, genres = false, studios = false, streams = false;
  static Wanted from(const Request& request);
};

// The Id every answer names its server by (Jellyfin's ServerId).
inline constexpr const char* kServerId = "9a0e3959c8474f0db4cbd6a8b1f2e3d4";

// An image tag: a digest of the image's path and modification date (as Jellyfin's is).
std::string image_tag(const std::string& path, const std::string& modified);

// The DTOs of `items`, in order, for `user`.
Json describe(Connection& db, const std::vector<ItemRow>& items, const std::string& user, const Wanted& wanted,
              const ServeOptions& options);

}  // namespace media_parity
