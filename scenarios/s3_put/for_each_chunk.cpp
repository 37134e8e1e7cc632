#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "uploader.hpp"

namespace s3_put {

void for_each_chunk(const Endpoint& store, const std::vector<Chunk>& chunks, unsigned concurrency,
                    const std::function<void(StoreConnection&, const Chunk&)>& per_chunk) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mu;
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < concurrency; ++w)
    workers.emplace_back([&] {
      try {
        StoreConnection connection(store);
        for (std::size_t i; (i = next.fetch_add(1)) < chunks.size();) per_chunk(connection, chunks[i]);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!first_error) first_error = std::current_exception();
        next = chunks.size();  // the others stop after their current chunk
      }
    });
  for (auto& t : workers) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace s3_put
