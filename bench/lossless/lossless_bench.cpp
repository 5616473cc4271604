// The incast of issue 16's benchmark on the switched fabric: 16 senders and one receiver on one
// switch (2 MiB buffer), 100 Gb/s links of 1 us, RC RDMA WRITEs at RoCE MTU 1024, PFC on priority
// 3, ECN marking and DCQCN, 10 ms simulated. Prints the frames carried over links (every hop: data,
// ACKs, PAUSE, CNPs) per CPU-second of the simulation, and what the fabric did.
// Usage: lossless_bench [SENDERS] [DURATION_US] [dcqcn|pfc]  (pfc: PFC alone, no ECN or DCQCN,
// so that the switch pauses the senders all along)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "rdmascope/sim/fabric.h"

using namespace rdmascope::sim;

namespace {

double cpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  const int senders = argc > 1 ? std::atoi(argv[1]) : 16;
  const int durationUs = argc > 2 ? std::atoi(argv[2]) : 10000;
  const std::string mode = argc > 3 ? argv[3] : "dcqcn";
  if (senders < 1 || senders > 512 || durationUs < 1 || (mode != "dcqcn" && mode != "pfc")) {
    std::fprintf(stderr, "usage: lossless_bench [SENDERS 1..512] [DURATION_US >= 1] [dcqcn|pfc]\n");
    return 2;
  }
  const bool dcqcn = mode == "dcqcn";
  std::string json =
      R"({"name": "bench-incast", "topology": {"shape": "star", "hosts": )" +
      std::to_string(senders + 1) +
      R"(}, "switch": {"pfc": true, "bufferBytes": 2097152, "ecn": )" +
      std::string(dcqcn ? "{\"kminBytes\": 5120, \"kmaxBytes\": 51200, \"pmax\": 0.1}" : "false") +
      R"(}, "nic": {"dcqcn": )" + (dcqcn ? "true" : "false") +
      R"(, "rateAiMbps": 400, "rateHaiMbps": 2000,
      "byteCounter": 1000000}, "durationUs": )" +
      std::to_string(durationUs) + R"(, "sampleIntervalUs": 100, "flows": [)";
  for (int i = 0; i < senders; ++i)
    json += (i ? ", " : "") + std::string(R"({"src": "h)") + std::to_string(i) + R"(", "dst": "h)" +
            std::to_string(senders) + R"("})";
  json += "]}";
  std::string error;
  auto spec = parseScenario(json, error);
  if (!spec) {
    std::fprintf(stderr, "lossless_bench: %s\n", error.c_str());
    return 2;
  }
  const double setupStart = cpuNow();
  Fabric fab(*spec);
  const double start = cpuNow();
  fab.run();
  const double cpu = cpuNow() - start;
  const FabricCounters& c = fab.counters();
  double goodput = 0;
  for (const auto& f : fab.flows())
    goodput += f.goodputGbps;
  std::printf(
      "rdmascope incast mode=%s senders=%d sim_us=%d link_packets=%llu cpu_s=%.3f "
      "packets_per_cpu_s=%.0f "
      "setup_cpu_s=%.3f drops=%llu pause_frames=%llu ecn_marked=%llu cnps=%llu goodput_gbps=%.1f\n",
      mode.c_str(), senders, durationUs, static_cast<unsigned long long>(c.framesTransmitted), cpu,
      static_cast<double>(c.framesTransmitted) / cpu, start - setupStart,
      static_cast<unsigned long long>(c.dropsLossy + c.dropsHeadroom),
      static_cast<unsigned long long>(c.pauseFramesSent + c.xonFramesSent),
      static_cast<unsigned long long>(c.ecnMarked), static_cast<unsigned long long>(c.cnpsSent),
      goodput);
  return c.dropsLossy + c.dropsHeadroom == 0 ? 0 : 1;
}
