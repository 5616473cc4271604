// The peer of the simulator benchmark: ns-3 carries N UDP packets of S bytes over one
// point-to-point link (UdpClient -> UdpServer) and prints the wall and CPU time it took.
// Usage: ns3_p2p_udp PACKETS SIZE RATE  (e.g. 262144 4096 100Gbps)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

int main(int argc, char** argv) {
  const std::uint32_t packets = argc > 1 ? static_cast<std::uint32_t>(std::atoi(argv[1])) : 262144;
  const std::uint32_t size = argc > 2 ? static_cast<std::uint32_t>(std::atoi(argv[2])) : 4096;
  const std::string rate = argc > 3 ? argv[3] : "100Gbps";

  auto cpuNow = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double cpuStart = cpuNow();
  const auto start = std::chrono::steady_clock::now();
  ns3::NodeContainer nodes;
  nodes.Create(2);
  ns3::PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", ns3::StringValue(rate));
  link.SetDeviceAttribute("Mtu", ns3::UintegerValue(size + 100));
  link.SetChannelAttribute("Delay", ns3::StringValue("1us"));
  link.SetQueue("ns3::DropTailQueue", "MaxSize", ns3::StringValue("100000p"));
  ns3::NetDeviceContainer devices = link.Install(nodes);
  ns3::InternetStackHelper stack;
  stack.Install(nodes);
  ns3::Ipv4AddressHelper address;
  address.SetBase("10.1.1.0", "255.255.255.0");
  ns3::Ipv4InterfaceContainer ifaces = address.Assign(devices);

  ns3::UdpServerHelper server(4791);
  ns3::ApplicationContainer serverApp = server.Install(nodes.Get(1));
  serverApp.Start(ns3::Seconds(0));
  ns3::UdpClientHelper client(ifaces.GetAddress(1), 4791);
  client.SetAttribute("MaxPackets", ns3::UintegerValue(packets));
  // Send at the link's pace: one packet per serialization time.
  const double bitsPerSecond = ns3::DataRate(rate).GetBitRate();
  client.SetAttribute("Interval", ns3::TimeValue(ns3::Seconds((size + 100) * 8.0 / bitsPerSecond)));
  client.SetAttribute("PacketSize", ns3::UintegerValue(size));
  ns3::ApplicationContainer clientApp = client.Install(nodes.Get(0));
  clientApp.Start(ns3::Seconds(0));
  ns3::Simulator::Stop(ns3::Seconds(10));
  ns3::Simulator::Run();
  const auto received = ns3::DynamicCast<ns3::UdpServer>(serverApp.Get(0))->GetReceived();
  ns3::Simulator::Destroy();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpuNow() - cpuStart;
  std::printf("ns3 packets_sent=%u packets_received=%llu size=%u wall_s=%.3f cpu_s=%.3f\n", packets,
              static_cast<unsigned long long>(received), size, wall, cpu);
  return received == packets ? 0 : 1;
}
