// perfgate-load: perfgate::load from the command line. Prints one JSON object (LoadResult).
//
//   perfgate-load --port 8080 --urls urls.txt --mix hot --connections 32 --duration 5 --cpus 1
//   perfgate-load --port 8080 --urls urls.txt --rate 20000 --duration 5      # open loop
#include <CLI/CLI.hpp>
#include <iostream>

#include "load/http_load.hpp"

int main(int argc, char** argv) {
  using namespace perfgate::load;
  CLI::App app{"perfgate-load: HTTP/1.1 keep-alive load, closed loop or open loop at a fixed offered rate"};
  LoadOptions o;
  std::string urls, mix = "uniform";
  std::size_t hot_count = 50;
  double hot_fraction = 0.8, zipf_s = 1.0;
  bool bodies = false, latencies = false;
  app.add_option("--host", o.host, "server address (IP literal)")->capture_default_str();
  app.add_option("--port", o.port, "server port")->required();
  app.add_option("--urls", urls, "URL list: one path or URL per line, optional weight after it")->required();
  app.add_option("--mix", mix, "uniform | hot | zipf | cycle | file")->capture_default_str();
  app.add_option("--hot-count", hot_count, "hot mix: the first N paths are hot")->capture_default_str();
  app.add_option("--hot-fraction", hot_fraction, "hot mix: their share of requests")->capture_default_str();
  app.add_option("--zipf-s", zipf_s, "zipf mix: the exponent")->capture_default_str();
  app.add_option("-c,--connections", o.connections, "keep-alive connections")->capture_default_str();
  app.add_option("-d,--duration", o.duration_s, "measured seconds")->capture_default_str();
  app.add_option("-n,--requests", o.max_requests, "measure this many requests instead of a duration");
  app.add_option("--rate", o.rate_rps, "open loop at this offered rate (requests/s); 0 = closed loop");
  app.add_option("--tick-us", o.tick_us, "open loop: wake at most once per this many µs (0: per request)")
      ->capture_default_str();
  app.add_option("--timeout", o.timeout_s, "per-request timeout, seconds")->capture_default_str();
  app.add_option("--warmup", o.warmup_s, "warm-up seconds (not measured)")->capture_default_str();
  app.add_option("--cpus", o.cpus, "pin the load thread to these CPUs")->delimiter(',');
  app.add_option("--seed", o.seed, "request sequence seed")->capture_default_str();
  app.add_flag("--gzip", o.accept_gzip, "send Accept-Encoding: gzip");
  app.add_flag("--bodies", bodies, "print every path's body digest");
  app.add_flag("--latencies", latencies, "print every latency (µs)");
  CLI11_PARSE(app, argc, argv);
  try {
    nlohmann::json w = {
        {"urls", urls}, {"mix", mix}, {"hot_count", hot_count}, {"hot_fraction", hot_fraction}, {"zipf_s", zipf_s}};
    const RequestSet set = RequestSet::from_workload(w, ".");
    const LoadResult r = run_load(o, set);
    nlohmann::json j = r.to_json(bodies);
    if (latencies) j["latencies_us"] = r.latencies_us;
    std::cout << j.dump() << std::endl;
    return r.responses > 0 ? 0 : 4;
  } catch (const std::invalid_argument& e) {
    std::cerr << "perfgate-load: " << e.what() << std::endl;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "perfgate-load: " << e.what() << std::endl;
    return 4;
  }
}
