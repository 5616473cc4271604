// The peer of the simulator benchmark: ns-3 carries N UDP packets of S bytes over one
// point-to-point link (UdpClient -> UdpServer) and prints the wall and CPU time it took.
// Usage: ns3_p2p_udp PACKETS SIZE RATE [LOSS] [FLOWS]  (e.g. 262144 4096 100Gbps 0.01 64)
//   LOSS: chance that the receiving device drops a packet (a RateErrorModel), default 0
//   FLOWS: client/server pairs sharing the link, each sending PACKETS / FLOWS, default 1

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
  const double loss = argc > 4 ? std::atof(argv[4]) : 0.0;
  const std::uint32_t flows = argc > 5 ? static_cast<std::uint32_t>(std::atoi(argv[5])) : 1;
  if (flows == 0 || packets % flows != 0 || loss < 0 || loss >= 1) {
    std::fprintf(stderr, "ns3_p2p_udp: FLOWS must divide PACKETS and LOSS be in [0, 1)\n");
    return 2;
  }

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

  if (loss > 0) {
    auto em = ns3::CreateObject<ns3::RateErrorModel>();
    em->SetAttribute("ErrorRate", ns3::DoubleValue(loss));
    em->SetAttribute("ErrorUnit", ns3::StringValue("ERROR_UNIT_PACKET"));
    devices.Get(1)->SetAttribute("ReceiveErrorModel", ns3::PointerValue(em));
  }
  // Send at the link's pace: one packet per serialization time, shared by the flows.
  const double bitsPerSecond = ns3::DataRate(rate).GetBitRate();
  const double interval = (size + 100) * 8.0 / bitsPerSecond * flows;
  ns3::ApplicationContainer serverApps;
  for (std::uint32_t f = 0; f < flows; ++f) {
    ns3::UdpServerHelper server(static_cast<std::uint16_t>(4791 + f));
    ns3::ApplicationContainer serverApp = server.Install(nodes.Get(1));
    serverApp.Start(ns3::Seconds(0));
    serverApps.Add(serverApp);
    ns3::UdpClientHelper client(ifaces.GetAddress(1), static_cast<std::uint16_t>(4791 + f));
    client.SetAttribute("MaxPackets", ns3::UintegerValue(packets / flows));
    client.SetAttribute("Interval", ns3::TimeValue(ns3::Seconds(interval)));
    client.SetAttribute("PacketSize", ns3::UintegerValue(size));
    ns3::ApplicationContainer clientApp = client.Install(nodes.Get(0));
    clientApp.Start(ns3::Seconds(interval * f / flows));
  }
  ns3::Simulator::Stop(ns3::Seconds(10));
  ns3::Simulator::Run();
  std::uint64_t received = 0;
  for (std::uint32_t f = 0; f < flows; ++f)
    received += ns3::DynamicCast<ns3::UdpServer>(serverApps.Get(f))->GetReceived();
  ns3::Simulator::Destroy();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpuNow() - cpuStart;
  std::printf(
      "ns3 packets_sent=%u packets_received=%llu size=%u flows=%u loss=%g wall_s=%.3f "
      "cpu_s=%.3f\n",
      packets, static_cast<unsigned long long>(received), size, flows, loss, wall, cpu);
  // without loss every packet arrives; with it, about (1 - loss) of them
  const double expected = packets * (1.0 - loss);
  return loss == 0 ? (received == packets ? 0 : 1)
                   : (received > expected * 0.98 && received < packets ? 0 : 1);
}
