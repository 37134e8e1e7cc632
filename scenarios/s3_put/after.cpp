// AFTER: PUT directly. Under content addressing a PUT of an object that exists stores the
// same bytes again, so the HEAD bought nothing; one round trip per chunk.
#include "uploader.hpp"

namespace s3_put {

void upload_direct(const Endpoint& store, const std::vector<Chunk>& chunks, unsigned concurrency, Shortcut shortcut,
                   const std::set<std::string>& skip, std::thread* background, const std::function<void()>& after_put) {
  static const std::string empty;
  const std::size_t last = chunks.empty() ? 0 : chunks.size() - 1;
  const Chunk* skipped = shortcut == Shortcut::SkipLastChunk && !chunks.empty() ? &chunks[last] : nullptr;
  auto put = [&](StoreConnection& c, const Chunk& chunk) {
    if (&chunk == skipped || skip.count(chunk.name)) return;
    const auto index = static_cast<std::size_t>(&chunk - chunks.data());
    const std::string& body = shortcut == Shortcut::EmptyBody                      ? empty
                              : shortcut == Shortcut::SharedBody && index % 2 == 1 ? chunks[index - 1].bytes
                                                                                   : chunk.bytes;
    c.put(chunk.name, body);
    if (after_put) after_put();
  };
  if (shortcut != Shortcut::UnreadTail || !background || chunks.size() <= concurrency)
    return for_each_chunk(store, chunks, concurrency, put);
  // The lie "unread-responses": the tail handed to a thread whose answers nobody awaits.
  const std::vector<Chunk> head(chunks.begin(), chunks.end() - concurrency);
  for_each_chunk(store, head, concurrency, put);
  *background = std::thread([store, &chunks, concurrency] {
    const std::vector<Chunk> tail(chunks.end() - concurrency, chunks.end());
    for_each_chunk(store, tail, concurrency,
                   [](StoreConnection& c, const Chunk& chunk) { c.put(chunk.name, chunk.bytes); });
  });
}

}  // namespace s3_put
