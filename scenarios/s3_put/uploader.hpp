// Writing a set of new content-addressed chunks to the store at a fixed concurrency: each of
// `concurrency` threads holds one keep-alive connection and takes the next chunk until none is
// left. The two variants differ only in the requests per chunk:
//   upload_probing (before.cpp): HEAD, then PUT when the store says 404;
//   upload_direct  (after.cpp):  PUT (an overwrite is harmless under content addressing).
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "chunks.hpp"
#include "store_client.hpp"

namespace s3_put {

// Runs `per_chunk(connection, chunk)` for every chunk over `concurrency` connections; the
// first exception of any thread is rethrown once all have stopped.
void for_each_chunk(const Endpoint& store, const std::vector<Chunk>& chunks, unsigned concurrency,
                    const std::function<void(StoreConnection&, const Chunk&)>& per_chunk);

void upload_probing(const Endpoint& store, const std::vector<Chunk>& chunks, unsigned concurrency);

// What the lies skip (AFTER only): the last chunk, every chunk's payload, or the body of its
// own chunk for every second one (the body of the chunk before it: one body slot shared by the
// threads, shown deterministically), or the answers of the tail (the last `concurrency` chunks
// handed to a background thread the upload does not wait for: "done" while the store still works).
enum class Shortcut { None, SkipLastChunk, EmptyBody, SharedBody, UnreadTail };

// `skip`: names not PUT (the lie "remembered-puts": chunks a memory says are stored already).
// `background`: where Shortcut::UnreadTail leaves the thread still PUTting the tail (the caller
// joins it after its clock has stopped). `after_put`: called after every PUT answered (any
// uploader thread; the lie "late-put-clock" starts its clock at the first).
void upload_direct(const Endpoint& store, const std::vector<Chunk>& chunks, unsigned concurrency,
                   Shortcut shortcut = Shortcut::None, const std::set<std::string>& skip = {},
                   std::thread* background = nullptr, const std::function<void()>& after_put = {});

}  // namespace s3_put
