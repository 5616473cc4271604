// The ns-3 peer of lossless_bench: the closest incast Debian's ns-3 (3.37) can build. 16 senders
// and one receiver on point-to-point links of 100 Gb/s and 1 us to one switch node (an IPv4
// router), a RED queue disc with ECN marking (the DCTCP setting: one marking threshold) on the
// switch's port to the receiver, and DCTCP senders (ECN-driven rate control, the nearest to
// DCQCN) with 1024-byte segments, for the same simulated time. What it lacks: PFC (ns-3 has no
// 802.1Qbb: a full queue drops), per-priority queues, RoCE's RC transport (TCP instead), CNPs
// and DCQCN. Prints the packets carried over links (every hop, counted at each device's
// transmit end) and the CPU time of the simulation.
// Usage: ns3_incast [SENDERS] [DURATION_US]

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

namespace {

std::uint64_t linkPackets = 0;

void countTx(ns3::Ptr<const ns3::Packet>) {
  ++linkPackets;
}

double cpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  const int senders = argc > 1 ? std::atoi(argv[1]) : 16;
  const int durationUs = argc > 2 ? std::atoi(argv[2]) : 10000;
  if (senders < 1 || senders > 512 || durationUs < 1) {
    std::fprintf(stderr, "usage: ns3_incast [SENDERS 1..512] [DURATION_US >= 1]\n");
    return 2;
  }
  const double setupStart = cpuNow();
  ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                          ns3::TypeIdValue(ns3::TcpDctcp::GetTypeId()));
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(1024));
  ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(4 << 20));
  ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(4 << 20));
  ns3::Config::SetDefault("ns3::RedQueueDisc::UseEcn", ns3::BooleanValue(true));
  ns3::Config::SetDefault("ns3::RedQueueDisc::UseHardDrop", ns3::BooleanValue(false));
  ns3::Config::SetDefault("ns3::RedQueueDisc::MeanPktSize", ns3::UintegerValue(1100));
  // one threshold, as DCTCP uses RED: 50 packets of 1 KB (about the fabric's Kmax)
  ns3::Config::SetDefault("ns3::RedQueueDisc::MinTh", ns3::DoubleValue(50));
  ns3::Config::SetDefault("ns3::RedQueueDisc::MaxTh", ns3::DoubleValue(50));
  ns3::Config::SetDefault("ns3::RedQueueDisc::QW", ns3::DoubleValue(1.0));
  ns3::Config::SetDefault("ns3::RedQueueDisc::MaxSize",
                          ns3::QueueSizeValue(ns3::QueueSize("1000p")));

  ns3::NodeContainer hosts;
  hosts.Create(static_cast<std::uint32_t>(senders + 1));
  ns3::Ptr<ns3::Node> sw = ns3::CreateObject<ns3::Node>();
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", ns3::StringValue("100Gbps"));
  p2p.SetChannelAttribute("Delay", ns3::StringValue("1us"));
  ns3::InternetStackHelper stack;
  stack.Install(hosts);
  stack.Install(sw);
  ns3::Ipv4AddressHelper address;
  ns3::Ipv4Address receiverAddress;
  ns3::QueueDiscContainer red;
  for (int i = 0; i <= senders; ++i) {
    ns3::NetDeviceContainer devs = p2p.Install(hosts.Get(static_cast<std::uint32_t>(i)), sw);
    if (i == senders) {
      // the congested port: the switch's side towards the receiver
      ns3::TrafficControlHelper tch;
      tch.SetRootQueueDisc("ns3::RedQueueDisc", "LinkBandwidth", ns3::StringValue("100Gbps"),
                           "LinkDelay", ns3::StringValue("1us"));
      red = tch.Install(devs.Get(1));
    }
    address.SetBase(ns3::Ipv4Address((10u << 24) | (static_cast<std::uint32_t>(i + 1) << 8)),
                    "255.255.255.0");
    ns3::Ipv4InterfaceContainer ifs = address.Assign(devs);
    if (i == senders) receiverAddress = ifs.GetAddress(0);
  }
  ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  const std::uint16_t port = 4791;
  ns3::PacketSinkHelper sink("ns3::TcpSocketFactory",
                             ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port));
  ns3::ApplicationContainer sinkApp = sink.Install(hosts.Get(static_cast<std::uint32_t>(senders)));
  sinkApp.Start(ns3::Seconds(0));
  for (int i = 0; i < senders; ++i) {
    ns3::BulkSendHelper bulk("ns3::TcpSocketFactory",
                             ns3::InetSocketAddress(receiverAddress, port));
    bulk.SetAttribute("MaxBytes", ns3::UintegerValue(0));
    bulk.SetAttribute("SendSize", ns3::UintegerValue(65536));
    bulk.Install(hosts.Get(static_cast<std::uint32_t>(i))).Start(ns3::Seconds(0));
  }
  ns3::Config::ConnectWithoutContext(
      "/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyTxEnd", ns3::MakeCallback(&countTx));
  ns3::Simulator::Stop(ns3::MicroSeconds(durationUs));
  const double start = cpuNow();
  ns3::Simulator::Run();
  const double cpu = cpuNow() - start;
  const auto received = ns3::DynamicCast<ns3::PacketSink>(sinkApp.Get(0))->GetTotalRx();
  const ns3::QueueDisc::Stats stats = red.Get(0)->GetStats();
  ns3::Simulator::Destroy();
  std::printf(
      "ns3 incast senders=%d sim_us=%d link_packets=%llu cpu_s=%.3f packets_per_cpu_s=%.0f "
      "setup_cpu_s=%.3f drops=%u ecn_marked=%u goodput_gbps=%.1f\n",
      senders, durationUs, static_cast<unsigned long long>(linkPackets), cpu,
      static_cast<double>(linkPackets) / cpu, start - setupStart, stats.nTotalDroppedPackets,
      stats.nTotalMarkedPackets, static_cast<double>(received) * 8.0 / (durationUs * 1e3));
  return linkPackets > 0 ? 0 : 1;
}
