// The load engine: one Asio event loop, N keep-alive connections, Beast's HTTP/1.1 parser.
#include "load/http_load.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cmath>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "load/connection.hpp"
#include "load/load_options.hpp"
#include "load/response_reader.hpp"
#include "perfgate/percentile.hpp"
#include "perfgate/thread_cpu.hpp"

namespace perfgate::load {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

class Engine {
 public:
  Engine(const LoadOptions& o, const RequestSet& set)
      : o_(o), set_(set), sched_(io_), watchdog_(io_), seen_(set.paths.size()), bad_(set.paths.size(), false) {
    endpoint_ = tcp::endpoint(asio::ip::make_address(o.host), o.port);
    const std::string host = endpoint_.address().is_v6() ? "[" + o.host + "]" : o.host;
    wire_.reserve(set.paths.size());
    for (const auto& p : set.paths) {
      std::string w = "GET " + p + " HTTP/1.1\r\nHost: " + host + ":" + std::to_string(o.port) +
                      "\r\nUser-Agent: perfgate-load\r\n";
      if (o.accept_gzip) w += "Accept-Encoding: gzip\r\n";
      wire_.push_back(w + "\r\n");
    }
    for (int i = 0; i < o.connections; ++i) conns_.push_back(std::make_unique<Conn>(io_));
    if (o.keep_latencies) {
      const double expect = o.max_requests > 0 ? static_cast<double>(o.max_requests)
                                               : (o.rate_rps > 0 ? o.rate_rps * o.duration_s : 50000.0 * o.duration_s);
      latencies_.reserve(static_cast<std::size_t>(std::min(expect * 1.1, 5e7)));
    }
  }

  LoadResult run() {
    const double cpu0 = perfgate::ns_to_ms(perfgate::thread_cpu_ns()) / 1e3;
    t0_ = Clock::now();
    measure_start_ = t0_ + seconds(o_.warmup_s);
    window_end_ = measure_start_ + seconds(o_.duration_s);
    last_done_ = measure_start_;
    open_loop_ = o_.rate_rps > 0;
    if (open_loop_) {
      interval_ = 1.0 / o_.rate_rps;
      const auto warm = static_cast<std::uint64_t>(std::ceil(o_.warmup_s * o_.rate_rps));
      total_ = o_.max_requests > 0 ? warm + o_.max_requests
                                   : static_cast<std::uint64_t>(std::ceil((o_.warmup_s + o_.duration_s) * o_.rate_rps));
      for (auto& c : conns_) idle_.push_back(c.get());
    } else {
      for (auto& c : conns_) next(*c);
    }
    arm_watchdog();
    if (open_loop_ && o_.tick_us > 0) {
      run_in_ticks();
    } else {
      if (open_loop_) tick();
      io_.run();
    }
    LoadResult r = collect();
    r.stopped = stopped_;
    r.client_cpu_s = perfgate::ns_to_ms(perfgate::thread_cpu_ns()) / 1e3 - cpu0;
    r.client_wall_s = seconds_between(t0_, Clock::now());
    return r;
  }

 private:
  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }
  static double seconds_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  Clock::time_point intended(std::uint64_t k) const { return t0_ + seconds(static_cast<double>(k) * interval_); }

  // --- closed loop: the next request of a free connection --------------------------------
  void next(Conn& c) {
    if (finished_) return;
    if (open_loop_) {
      if (!queue_.empty()) {
        Request r = queue_.front();
        queue_.pop_front();
        start(c, r);
      } else {
        idle_.push_back(&c);
        check_done();
      }
      return;
    }
    const auto now = Clock::now();
    const bool measured = now >= measure_start_;
    const bool more = o_.max_requests > 0 ? !(measured && issued_measured_ >= o_.max_requests) : now < window_end_;
    if (!more) {
      stopping_ = true;
      check_done();
      return;
    }
    if (measured) ++issued_measured_;
    Request r;
    r.k = next_k_++;
    r.path = set_.pick(o_.seed, r.k);
    r.origin = now;
    r.measured = measured;
    start(c, r);
  }

  // --- open loop: release every request whose intended time has come ----------------------
  // Per request (tick_us == 0): a timer for each intended send time.
  void tick() {
    release();
    if (finished_ || next_k_ >= total_) return;
    sched_.expires_at(intended(next_k_));
    sched_.async_wait([this](error_code ec) {
      if (!ec) tick();
    });
  }

  // In ticks: the thread sleeps until the next tick (or the next intended send time, when
  // later), then reads every response that arrived, and sends every request that came due,
  // in one wake-up. A request sent late keeps its intended time as its latency's origin.
  void run_in_ticks() {
    const auto tick =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::micro>(o_.tick_us));
    auto woke = Clock::now();
    release();
    while (!finished_) {
      io_.poll();
      if (finished_ || stop_requested()) break;
      auto wake = woke + tick;
      if (next_k_ < total_) wake = std::max(wake, intended(next_k_));
      sleep_until(wake);
      woke = Clock::now();
      ++wakeups_;
      release();
    }
  }

  void release() {
    if (finished_) return;
    const auto now = Clock::now();
    std::size_t added = 0;
    while (next_k_ < total_ && intended(next_k_) <= now) {
      Request r;
      r.k = next_k_;
      r.path = set_.pick(o_.seed, r.k);
      r.origin = intended(next_k_);
      r.measured = r.origin >= measure_start_;
      queue_.push_back(r);
      ++next_k_;
      ++added;
    }
    while (!queue_.empty() && !idle_.empty()) {
      Conn* c = idle_.back();
      idle_.pop_back();
      Request r = queue_.front();
      queue_.pop_front();
      start(*c, r);
    }
    // Whatever is still queued found every connection busy at its intended time.
    for (std::size_t i = queue_.size() - std::min(added, queue_.size()); i < queue_.size(); ++i)
      queue_[i].waited = true;
    max_queue_ = std::max<std::uint64_t>(max_queue_, queue_.size());
    if (next_k_ >= total_ && !schedule_done_) {
      schedule_done_ = true;
      drain_deadline_ = Clock::now() + seconds(o_.timeout_s);
      check_done();
    }
  }

  // --- one request on one connection -----------------------------------------------------
  void start(Conn& c, const Request& r) {
    c.busy = true;
    c.timed_out = false;
    c.req = r;
    c.started = Clock::now();
    if (!open_loop_) c.req.origin = c.started;
    if (open_loop_ && r.measured)
      send_delays_us_.push_back(std::chrono::duration<double, std::micro>(c.started - r.origin).count());
    if (c.open) {
      write(c);
      return;
    }
    error_code ignored;
    c.sock.close(ignored);
    c.buf.clear();
    c.sock.async_connect(endpoint_, [this, &c](error_code ec) {
      if (c.timed_out) return complete(c, Outcome::Timeout);
      if (ec) return complete(c, Outcome::ConnectError);
      error_code ignore;
      c.sock.set_option(tcp::no_delay(true), ignore);
      stamp_arrivals(c.sock.native_handle());
      c.open = true;
      ++connects_;
      write(c);
    });
  }

  void write(Conn& c) {
    asio::async_write(c.sock, asio::buffer(wire_[c.req.path]), [this, &c](error_code ec, std::size_t) {
      if (c.timed_out) return complete(c, Outcome::Timeout);
      if (ec) {
        c.error = "the request could not be written: " + ec.message();
        return complete(c, Outcome::Error);
      }
      c.parser.emplace(&c.body, &c.headers);
      read_response(c);
    });
  }

  // Reads before waiting: a response (or the server's close) may be there already, and Asio's
  // edge-triggered wait would not report bytes that arrived before it was armed.
  void read_response(Conn& c) {
    ReadStep step = read_available(c.sock.native_handle(), c.buf, *c.parser);
    if (step.kind == ReadStep::Done) return complete(c, Outcome::Ok, step.arrived);
    if (step.kind == ReadStep::Failed) {
      c.error = std::move(step.error);
      return complete(c, Outcome::Error);
    }
    c.sock.async_wait(tcp::socket::wait_read, [this, &c](error_code ec) {
      if (c.timed_out) return complete(c, Outcome::Timeout);
      if (ec) {
        c.error = "the response could not be read: " + ec.message();
        return complete(c, Outcome::Error);
      }
      read_response(c);
    });
  }

  enum class Outcome { Ok, Error, ConnectError, Timeout };

  // `now`: when the response arrived (the kernel's stamp) or the failure was seen.
  void complete(Conn& c, Outcome outcome, Clock::time_point now = Clock::now()) {
    c.busy = false;
    const Request& r = c.req;
    if (outcome == Outcome::Ok) {
      const XXH128_hash_t h = c.parser->digest();
      if (o_.book)
        o_.book->answer(set_.paths[r.path], r.k, c.parser->status, BodyDigest{h.high64, h.low64}, c.body,
                        c.parser->meaningful_headers());
      auto& seen = seen_[r.path];
      if (!seen)
        seen = h;
      else if (!XXH128_isEqual(*seen, h))
        bad_[r.path] = true;
      if (!c.parser->keep_alive()) close(c);
      if (r.measured) {
        ++responses_;
        const int code = c.parser->status;
        ++status_[code >= 0 && code < static_cast<int>(status_.size()) ? code : 0];
        body_bytes_ += c.parser->bytes();
        if (o_.keep_latencies) latencies_.push_back(std::chrono::duration<double, std::micro>(now - r.origin).count());
        if (r.waited) ++queued_;
        last_done_ = std::max(last_done_, now);
      } else {
        ++warmup_responses_;
      }
    } else {
      close(c);
      if (o_.book) {
        if (outcome == Outcome::Timeout)
          o_.book->timeout();
        else
          o_.book->transport_error(set_.paths[r.path], r.k,
                                   outcome == Outcome::ConnectError ? "the connection was refused" : c.error);
      }
      if (r.measured) {
        if (outcome == Outcome::Timeout)
          ++timeouts_;
        else
          ++errors_;
        if (r.waited) ++queued_;
        last_done_ = std::max(last_done_, now);
      }
      if (outcome == Outcome::ConnectError) {
        // Do not spin on a refusing server: wait a little before this connection's next request.
        c.backoff.expires_after(std::chrono::milliseconds(10));
        c.backoff.async_wait([this, &c](error_code ec) {
          if (!ec) next(c);
        });
        return;
      }
    }
    next(c);
  }

  void close(Conn& c) {
    error_code ignored;
    c.sock.close(ignored);
    c.open = false;
    c.buf.clear();
  }

  // The caller asked to stop (Ctrl-C): leave io_.run() now; ~Engine closes the connections.
  bool stop_requested() {
    if (finished_ || !o_.stop || !o_.stop()) return false;
    stopped_ = finished_ = true;
    io_.stop();
    return true;
  }

  // Timeouts: a periodic sweep (cheaper than a timer per request). Also ends an open-loop
  // drain that the server cannot finish.
  void arm_watchdog() {
    const double tick = std::clamp(o_.timeout_s / 10.0, 0.001, 0.05);
    watchdog_.expires_after(seconds(tick));
    watchdog_.async_wait([this](error_code ec) {
      if (ec || finished_ || stop_requested()) return;
      const auto now = Clock::now();
      const auto limit = seconds(o_.timeout_s);
      for (auto& c : conns_) {
        if (c->busy && !c->timed_out && now - c->started >= limit) {
          c->timed_out = true;
          error_code ignored;
          c->sock.close(ignored);  // the pending operation completes with operation_aborted
        }
      }
      if (open_loop_ && schedule_done_ && now >= drain_deadline_) {
        for (const auto& r : queue_) {
          if (r.measured) {
            ++timeouts_;
            if (r.waited) ++queued_;
          }
        }
        queue_.clear();
      }
      check_done();
      if (!finished_) arm_watchdog();
    });
  }

  void check_done() {
    if (finished_) return;
    if (open_loop_ ? !(schedule_done_ && queue_.empty()) : !stopping_) return;
    for (const auto& c : conns_)
      if (c->busy) return;
    finished_ = true;
    io_.stop();
  }

  LoadResult collect() {
    LoadResult r;
    r.label = set_.label;
    r.responses = responses_;
    r.errors = errors_;
    r.timeouts = timeouts_;
    r.requests = responses_ + errors_ + timeouts_;
    for (std::size_t code = 0; code < status_.size(); ++code)
      if (status_[code]) r.status[static_cast<int>(code)] = status_[code];
    r.body_bytes = body_bytes_;
    r.elapsed_s = std::max(seconds_between(measure_start_, last_done_), 0.0);
    if (r.elapsed_s <= 0) r.elapsed_s = std::max(seconds_between(measure_start_, Clock::now()), 1e-9);
    r.rps = static_cast<double>(responses_) / r.elapsed_s;
    r.latencies_us = std::move(latencies_);
    r.queued = queued_;
    r.max_queue = max_queue_;
    r.warmup_responses = warmup_responses_;
    r.connects = connects_;
    r.wakeups = wakeups_;
    if (!send_delays_us_.empty()) {
      std::sort(send_delays_us_.begin(), send_delays_us_.end());
      r.send_delay_us_p50 = percentile_sorted(send_delays_us_, 0.5);
      r.send_delay_us_p99 = percentile_sorted(send_delays_us_, 0.99);
      r.send_delay_us_max = send_delays_us_.back();
    }
    for (std::size_t i = 0; i < seen_.size(); ++i) {
      if (!seen_[i]) continue;
      r.body_digest.emplace(set_.paths[i], to_hex(BodyDigest{seen_[i]->high64, seen_[i]->low64}));
      if (bad_[i]) r.inconsistent_paths.push_back(set_.paths[i]);
    }
    return r;
  }

  const LoadOptions& o_;
  const RequestSet& set_;
  asio::io_context io_{1};
  tcp::endpoint endpoint_;
  asio::steady_timer sched_;
  asio::steady_timer watchdog_;
  std::vector<std::string> wire_;
  std::vector<std::unique_ptr<Conn>> conns_;

  bool open_loop_ = false;
  bool stopping_ = false;
  bool schedule_done_ = false;
  bool finished_ = false, stopped_ = false;
  double interval_ = 0;
  Clock::time_point t0_, measure_start_, window_end_, last_done_, drain_deadline_;
  std::uint64_t next_k_ = 0, total_ = 0, issued_measured_ = 0;
  std::deque<Request> queue_;
  std::vector<Conn*> idle_;

  std::uint64_t responses_ = 0, errors_ = 0, timeouts_ = 0, body_bytes_ = 0, queued_ = 0, max_queue_ = 0;
  std::uint64_t warmup_responses_ = 0, connects_ = 0, wakeups_ = 0;
  std::vector<double> send_delays_us_;
  std::array<std::uint64_t, 1000> status_{};
  std::vector<double> latencies_;
  std::vector<std::optional<XXH128_hash_t>> seen_;
  std::vector<bool> bad_;
};

}  // namespace

LoadResult run_load(const LoadOptions& opts, const RequestSet& set) {
  validate(opts, set);
  {
    // Fail fast, with a message, when nothing listens there.
    asio::io_context io;
    tcp::socket probe(io);
    error_code ec;
    probe.connect(tcp::endpoint(asio::ip::make_address(opts.host), opts.port), ec);
    if (ec)
      throw std::runtime_error("load: cannot connect to " + opts.host + ":" + std::to_string(opts.port) + ": " +
                               ec.message());
  }
  LoadResult result;
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      pin_this_thread(opts.cpus);
      Engine engine(opts, set);
      result = engine.run();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace perfgate::load
