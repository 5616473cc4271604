#include "test_frames.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <QtGlobal>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui::test {

namespace {

void put16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
void put32(Bytes& b, std::uint32_t v) {
  put16(b, static_cast<std::uint16_t>(v >> 16));
  put16(b, static_cast<std::uint16_t>(v));
}
void putLe32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

Bytes ethIpv4(std::uint8_t proto, std::size_t ipPayload) {
  Bytes b = {0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00};
  const std::size_t ipStart = b.size();
  b.push_back(0x45);
  b.push_back(0);
  put16(b, static_cast<std::uint16_t>(20 + ipPayload));
  put16(b, 1);
  put16(b, 0x4000);
  b.push_back(64);
  b.push_back(proto);
  put16(b, 0);
  put32(b, 0x0a090001);
  put32(b, 0x0a090002);
  std::uint32_t sum = 0;
  for (std::size_t i = ipStart; i < ipStart + 20; i += 2)
    sum += static_cast<std::uint32_t>(b[i] << 8 | b[i + 1]);
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  const auto csum = static_cast<std::uint16_t>(~sum);
  b[ipStart + 10] = static_cast<std::uint8_t>(csum >> 8);
  b[ipStart + 11] = static_cast<std::uint8_t>(csum);
  return b;
}

}  // namespace

Bytes roceFrame(std::uint32_t psn, std::size_t payload, std::uint8_t opcode, bool badIcrc) {
  const std::size_t udpLen = 8 + 12 + payload + 4;
  Bytes b = ethIpv4(17, udpLen);
  put16(b, 49152);
  put16(b, 4791);
  put16(b, static_cast<std::uint16_t>(udpLen));
  put16(b, 0);
  b.push_back(opcode);
  b.push_back(0x40);
  put16(b, 0xffff);
  put32(b, 0x11);
  put32(b, psn & 0xffffff);
  for (std::size_t i = 0; i < payload; ++i)
    b.push_back(static_cast<std::uint8_t>('a' + i % 26));
  putLe32(b, 0);
  packets::IbCrcLocation loc;
  if (packets::locateIbPacket(b, packets::LinkType::Ethernet, {}, loc)) {
    std::uint32_t icrc = packets::computeIcrc(b, loc.layout);
    if (badIcrc) icrc ^= 0xdeadbeef;
    for (int i = 0; i < 4; ++i)
      b[loc.layout.icrc + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(icrc >> (8 * i));
  }
  return b;
}

Bytes tcpFrame(std::uint16_t sport, std::uint16_t dport, std::size_t payload) {
  Bytes b = ethIpv4(6, 20 + payload);
  put16(b, sport);
  put16(b, dport);
  put32(b, 1000);
  put32(b, 0);
  put16(b, 0x5018);
  put16(b, 65535);
  put16(b, 0);
  put16(b, 0);
  for (std::size_t i = 0; i < payload; ++i)
    b.push_back(static_cast<std::uint8_t>(i));
  return b;
}

Bytes pcapFile(const std::vector<Bytes>& frames) {
  Bytes b;
  putLe32(b, 0xa1b2c3d4);
  b.push_back(2);
  b.push_back(0);
  b.push_back(4);
  b.push_back(0);
  putLe32(b, 0);
  putLe32(b, 0);
  putLe32(b, 262144);
  putLe32(b, 1);
  std::uint32_t usec = 0;
  for (const auto& f : frames) {
    putLe32(b, 1700000000);
    putLe32(b, usec += 10);
    putLe32(b, static_cast<std::uint32_t>(f.size()));
    putLe32(b, static_cast<std::uint32_t>(f.size()));
    b.insert(b.end(), f.begin(), f.end());
  }
  return b;
}

std::string iwarpCapture(const char* scenario, double loss, std::uint64_t seed) {
  sim::TransportScenarioOptions o;
  o.lossRate = loss;
  o.seed = seed;
  o.bytes = 100000;
  std::string error;
  const auto run = sim::runTransportScenario(scenario, o, error);
  EXPECT_TRUE(run) << error;
  const std::string path = std::string(RDMASCOPE_BINARY_DIR) + "/tests/ui/" +
                           std::to_string(::getpid()) + "_" + scenario + "_" +
                           std::to_string(seed) + ".pcap";
  auto writer = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  EXPECT_TRUE(writer) << error;
  if (!run || !writer) return path;
  for (const auto& f : run->frames)
    writer->write(f.bytes, 1'000'000'000 + f.timePs / 1000);
  EXPECT_TRUE(writer->close()) << writer->error();
  return path;
}

std::string writeFile(const std::string& name, const Bytes& bytes) {
  // ctest runs each test case as its own process, two at a time: a name shared by two cases
  // would let one truncate the file while the other has it mapped (SIGBUS). The process id keeps
  // them apart, and the rename makes the file appear whole.
  const std::string path =
      std::string(RDMASCOPE_BINARY_DIR) + "/tests/ui/" + std::to_string(::getpid()) + "_" + name;
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  std::filesystem::rename(partial, path);
  return path;
}

namespace {
QtMessageHandler previousHandler = nullptr;
void collect(QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
  if (type != QtDebugMsg && ctx.category && std::strcmp(ctx.category, "qt.modeltest") == 0)
    ModelTestWarnings::messages().push_back(msg.toStdString());
  if (previousHandler) previousHandler(type, ctx, msg);
}
}  // namespace

ModelTestWarnings::ModelTestWarnings() {
  messages().clear();
  previousHandler = qInstallMessageHandler(collect);
}

ModelTestWarnings::~ModelTestWarnings() {
  qInstallMessageHandler(previousHandler);
}

std::vector<std::string>& ModelTestWarnings::messages() {
  static std::vector<std::string> m;
  return m;
}

std::vector<std::size_t> filterMatches(const FrameStore& store, const std::string& text) {
  std::string error;
  auto f = packets::DisplayFilter::compile(text, error);
  EXPECT_TRUE(f) << text << ": " << error;
  std::vector<std::size_t> out;
  if (!f) return out;
  for (std::size_t i = 0; i < store.size(); ++i)
    if (f->matches(store.decode(i))) out.push_back(i);
  return out;
}

}  // namespace rdmascope::ui::test
