// A service with its own phased load client, for the tests of `service.load_client`
// (tests/e2e/test_phased_client.py). `serve` first does its seeding — `seed_work` units of
// hashing and `seed_mib` MiB touched, then freed — and only then listens, so a test can see
// that the seeding lands in the harness's `startup` phase and in no later one. A request
// "WORK <units> <mib>" makes the server hold <mib> MiB while it hashes <units> x 64 KiB and
// answer "DONE <hash>"; `--lie wrong-answer` answers another hash (the agreement gate must
// catch it). `load --phase P` sends `params.phases.P.requests` such requests.
#include <signal.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <iostream>
#include <thread>
#include <vector>

#include "perfgate/percentile.hpp"
#include "perfgate/scenario_main.hpp"

namespace {
using boost::asio::ip::tcp;

std::string hash_work(std::uint64_t units, std::size_t mib, bool lie) {
  std::vector<char> held(mib << 20);
  for (std::size_t i = 0; i < held.size(); i += 4096)
    held[i] = static_cast<char>(i >> 12);  // resident, not just mapped
  std::vector<char> block(64 << 10, 'x');
  perfgate::Digest d;
  for (std::uint64_t u = 0; u < units; ++u) {
    std::memcpy(block.data(), &u, sizeof u);
    d.update(block.data(), block.size());
  }
  d.field(std::to_string(units) + (lie ? "+lie" : ""));
  return d.hex();
}

void answer(tcp::socket socket, bool lie) {
  boost::system::error_code ec;
  boost::asio::streambuf in;
  while (boost::asio::read_until(socket, in, '\n', ec)) {
    std::istream line(&in);
    std::string word;
    std::uint64_t units = 0;
    std::size_t mib = 0;
    line >> word >> units >> mib;
    line.ignore(1 << 20, '\n');
    const std::string reply = "DONE " + hash_work(units, mib, lie) + "\n";
    boost::asio::write(socket, boost::asio::buffer(reply), ec);
    if (ec) return;
  }
}

int serve(const perfgate::Invocation& inv) {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  hash_work(inv.param<std::uint64_t>("seed_work", 0), inv.param<std::size_t>("seed_mib", 0), false);  // seeding
  boost::asio::io_context io;
  const perfgate::Endpoint at = perfgate::parse_endpoint(inv.listen);
  tcp::acceptor acceptor(io, tcp::endpoint(boost::asio::ip::make_address(at.host), at.port));
  perfgate::announce_listen(at.host, acceptor.local_endpoint().port());
  std::thread([&acceptor, lie = inv.lying("wrong-answer")] {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket s = acceptor.accept(ec);
      if (ec) return;
      std::thread(answer, std::move(s), lie).detach();
    }
  }).detach();
  int sig = 0;
  sigwait(&stop, &sig);
  return 0;
}

perfgate::Report load(const perfgate::Invocation& inv) {
  const auto& phase = inv.params.at("phases").at(inv.flag("phase"));
  const perfgate::Endpoint target = perfgate::parse_endpoint(inv.target);
  boost::asio::io_context io;
  tcp::socket s(io);
  s.connect(tcp::endpoint(boost::asio::ip::make_address(target.host), target.port));
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  std::vector<double> ms;
  boost::asio::streambuf in;
  const std::string request =
      "WORK " + std::to_string(phase.value("work", 1)) + " " + std::to_string(phase.value("mib", 0)) + "\n";
  for (int i = 0; i < phase.value("requests", 1); ++i) {
    perfgate::Stopwatch clock;
    boost::asio::write(s, boost::asio::buffer(request));
    boost::asio::read_until(s, in, '\n');
    ms.push_back(clock.ms());
    std::istream line(&in);
    std::string reply;
    std::getline(line, reply);
    log.line(reply);
  }
  perfgate::Report r;
  r.metric("request_p50_ms", perfgate::percentile(ms, 0.5), "ms")
      .metric("requests", static_cast<double>(ms.size()), "count");
  return r.series("request_ms", ms, "ms").digest(digest.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("phased_echo")
                                     .variants({"before", "after"})
                                     .lies({"wrong-answer"})
                                     .serve(serve)
                                     .load(load));
}
