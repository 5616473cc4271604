// Captures read as a stream: FIFOs, pcapng files whose sections differ in byte order (which
// libpcap refuses and tshark reads), pcapng time stamp resolutions and offsets.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::packets_io {
namespace {

std::string tempPath(const std::string& name) {
  return "/tmp/rdmascope_stream_" + std::to_string(::getpid()) + "_" + name;
}

void writeAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A pcapng writer for tests, in either byte order.
class Pcapng {
 public:
  explicit Pcapng(bool bigEndian) : big_(bigEndian) {}

  void section() {
    std::string body;
    put32(body, 0x1a2b3c4d);
    put16(body, 1);
    put16(body, 0);
    put64(body, ~std::uint64_t{0});  // section length unknown
    block(0x0a0d0d0a, body);
  }
  // An interface; tsresol < 0 leaves the option out (microseconds).
  void interface(std::uint16_t link, int tsresol = -1, std::int64_t tsoffset = 0) {
    std::string body;
    put16(body, link);
    put16(body, 0);
    put32(body, 0);  // no snap length
    if (tsresol >= 0) {
      put16(body, 9);
      put16(body, 1);
      body.push_back(static_cast<char>(tsresol));
      body.append(3, '\0');
    }
    if (tsoffset) {
      put16(body, 14);
      put16(body, 8);
      put64(body, static_cast<std::uint64_t>(tsoffset));
    }
    put16(body, 0);
    put16(body, 0);
    block(1, body);
  }
  void packet(std::uint32_t interface, std::uint64_t units, const std::string& data) {
    std::string body;
    put32(body, interface);
    put32(body, static_cast<std::uint32_t>(units >> 32));
    put32(body, static_cast<std::uint32_t>(units));
    put32(body, static_cast<std::uint32_t>(data.size()));
    put32(body, static_cast<std::uint32_t>(data.size() + 3));
    body += data;
    body.append((4 - data.size() % 4) % 4, '\0');
    block(6, body);
  }
  void simplePacket(const std::string& data) {
    std::string body;
    put32(body, static_cast<std::uint32_t>(data.size()));
    body += data;
    body.append((4 - data.size() % 4) % 4, '\0');
    block(3, body);
  }
  const std::string& bytes() const { return out_; }
  std::string& bytes() { return out_; }

 private:
  void put16(std::string& s, std::uint16_t v) {
    for (int i = 0; i < 2; ++i)
      s.push_back(static_cast<char>(big_ ? v >> (8 * (1 - i)) : v >> (8 * i)));
  }
  void put32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      s.push_back(static_cast<char>(big_ ? v >> (8 * (3 - i)) : v >> (8 * i)));
  }
  void put64(std::string& s, std::uint64_t v) {
    put32(s, static_cast<std::uint32_t>(big_ ? v >> 32 : v));
    put32(s, static_cast<std::uint32_t>(big_ ? v : v >> 32));
  }
  void block(std::uint32_t type, const std::string& body) {
    const auto len = static_cast<std::uint32_t>(12 + body.size());
    put32(out_, type);
    put32(out_, len);
    out_ += body;
    put32(out_, len);
  }
  bool big_;
  std::string out_;
};

std::string frameBytes(int n) {
  std::string f(14 + static_cast<std::size_t>(n), '\0');
  for (std::size_t i = 0; i < f.size(); ++i)
    f[i] = static_cast<char>(i * 7 + static_cast<std::size_t>(n));
  f[12] = 0x08;  // an IPv4 ethertype: tshark shows these as Ethernet frames
  f[13] = 0x00;
  return f;
}

// Section 1 little-endian (microseconds, two interfaces), section 2 big-endian (nanoseconds,
// an offset of 10 s), section 3 little-endian again (binary resolution 2^-10 s).
std::string mixedSections() {
  Pcapng le(false), be(true), le2(false);
  le.section();
  le.interface(1);
  le.interface(1, 6);
  le.packet(0, 1'700'000'000'000'001ull, frameBytes(1));
  le.packet(1, 1'700'000'001'000'002ull, frameBytes(2));
  be.section();
  be.interface(1, 9, 10);
  be.packet(0, 1'700'000'001'500'000'003ull, frameBytes(3));
  be.simplePacket(frameBytes(4));
  le2.section();
  le2.interface(1, 0x80 | 10);
  le2.packet(0, 1'700'000'003ull * 1024 + 512, frameBytes(5));
  return le.bytes() + be.bytes() + le2.bytes();
}

TEST(StreamCaptureReader, PcapngSectionsOfDifferentByteOrderReadLikeTshark) {
  const std::string path = tempPath("mixed.pcapng");
  writeAll(path, mixedSections());
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->linkType(), packets::LinkType::Ethernet);
  std::vector<CapturedFrame> frames;
  for (CapturedFrame f; r->next(f);)
    frames.push_back(f);
  EXPECT_EQ(r->error(), "");
  ASSERT_EQ(frames.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const std::string want = frameBytes(i + 1);
    EXPECT_EQ(std::string(frames[i].data.begin(), frames[i].data.end()), want) << i;
  }
  EXPECT_EQ(frames[0].timestampNs, 1'700'000'000'000'001'000);
  EXPECT_EQ(frames[1].timestampNs, 1'700'000'001'000'002'000);
  EXPECT_EQ(frames[2].timestampNs, 1'700'000'011'500'000'003);  // + if_tsoffset 10 s
  EXPECT_EQ(frames[3].timestampNs, 0);                          // simple packet: no time
  EXPECT_EQ(frames[4].timestampNs, 1'700'000'003'500'000'000);  // 2^-10 s units
  EXPECT_EQ(frames[0].originalLength, frames[0].data.size() + 3);
  EXPECT_EQ(frames[3].originalLength, frames[3].data.size());

  // libpcap refuses the change of byte order: the reason this reader exists.
  auto lib = CaptureReader::open(path, error, ReadMethod::Libpcap);
  if (lib) {
    std::size_t n = 0;
    for (CapturedFrame f; lib->next(f);)
      ++n;
    EXPECT_LT(n, 5u) << "libpcap now reads mixed byte orders?";
  }

  if (std::system("tshark -v >/dev/null 2>&1") == 0) {
    FILE* p = popen(("tshark -r " + path +
                     " -T fields -e frame.number -e frame.time_epoch -e frame.len 2>/dev/null")
                        .c_str(),
                    "r");
    ASSERT_TRUE(p);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
      out.append(buf, n);
    pclose(p);
    EXPECT_EQ(out,
              "1\t1700000000.000001000\t18\n"
              "2\t1700000001.000002000\t19\n"
              "3\t1700000011.500000003\t20\n"
              "4\t\t18\n"  // a simple packet block has no time stamp
              "5\t1700000003.500000000\t22\n");
  }
  std::remove(path.c_str());
}

TEST(StreamCaptureReader, PcapngErrorsNameTheFileAndTheFrame) {
  const std::string path = tempPath("bad.pcapng");
  Pcapng ng(false);
  ng.section();
  ng.interface(1);
  ng.packet(3, 0, frameBytes(1));  // interface 3 is not defined
  writeAll(path, ng.bytes());
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  CapturedFrame f;
  EXPECT_FALSE(r->next(f));
  EXPECT_EQ(r->error(), path +
                            ": corrupt record at frame 1 (packet of interface 3, which section 1 "
                            "does not define)");

  Pcapng mixed(false);
  mixed.section();
  mixed.interface(1);
  mixed.interface(101);
  mixed.packet(0, 0, frameBytes(1));
  mixed.packet(1, 0, frameBytes(2));
  writeAll(path, mixed.bytes());
  r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->next(f));
  EXPECT_FALSE(r->next(f));
  EXPECT_EQ(r->error(), path +
                            ": frame 2 has link type 101 but the capture's first interface has 1 "
                            "(captures mixing link types are not supported)");

  Pcapng cut(true);
  cut.section();
  cut.interface(1);
  cut.packet(0, 0, frameBytes(1));
  cut.bytes().resize(cut.bytes().size() - 6);
  writeAll(path, cut.bytes());
  r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  EXPECT_FALSE(r->next(f));
  EXPECT_EQ(r->error(), path + ": truncated record at frame 1 (block needs 48 bytes, file has 42)");
  std::remove(path.c_str());
}

// A FIFO cannot be mapped or read twice: the reader takes it as a stream, while the writer
// is still writing.
TEST(StreamCaptureReader, ReadsPcapAndPcapngFromAFifo) {
  for (const auto format : {CaptureFormat::Pcap, CaptureFormat::Pcapng}) {
    const std::string file = tempPath("src.cap"), fifo = tempPath("fifo");
    {
      std::string error;
      auto w = CaptureWriter::open(file, packets::LinkType::Ethernet, error, format);
      ASSERT_TRUE(w) << error;
      for (int i = 0; i < 300; ++i) {
        const std::string b = frameBytes(i % 200 + 1);
        ASSERT_TRUE(w->write({reinterpret_cast<const std::uint8_t*>(b.data()), b.size()},
                             1'700'000'000'000'000'000 + i * 1000));
      }
      ASSERT_TRUE(w->close()) << w->error();
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    const std::string bytes = s.str();
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
      std::ofstream out(fifo, std::ios::binary);
      for (std::size_t at = 0; at < bytes.size(); at += 1000) {
        out.write(bytes.data() + at,
                  static_cast<std::streamsize>(std::min<std::size_t>(1000, bytes.size() - at)));
        out.flush();
      }
    });
    std::string error;
    auto r = CaptureReader::open(fifo, error);
    ASSERT_TRUE(r) << error;
    EXPECT_FALSE(r->keepsViews());
    std::size_t n = 0;
    for (CapturedFrame f; r->next(f); ++n) {
      const std::string want = frameBytes(static_cast<int>(n % 200 + 1));
      ASSERT_EQ(std::string(f.data.begin(), f.data.end()), want) << n;
      ASSERT_EQ(f.timestampNs, 1'700'000'000'000'000'000 + static_cast<std::int64_t>(n) * 1000);
    }
    writer.join();
    EXPECT_EQ(r->error(), "");
    EXPECT_EQ(n, 300u);
    ::unlink(fifo.c_str());
    std::remove(file.c_str());
  }
}

// pcap stores seconds and the fraction as unsigned 32-bit numbers: 0xFFFFFFFF seconds is in
// 2106 and 0xFFFFFFFF microseconds is 4294.967295 s, never a negative time.
TEST(StreamCaptureReader, LargestPcapTimeStampsStayPositive) {
  const std::string path = tempPath("stamps.pcap");
  std::string bytes;
  auto put32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      bytes.push_back(static_cast<char>(v >> (8 * i)));
  };
  put32(0xa1b2c3d4);
  bytes.append("\x02\x00\x04\x00", 4);
  put32(0);
  put32(0);
  put32(65535);
  put32(1);
  const std::uint32_t stamps[][2] = {
      {0xffffffffu, 0}, {0, 0xffffffffu}, {0xffffffffu, 0xffffffffu}};
  for (const auto& s : stamps) {
    put32(s[0]);
    put32(s[1]);
    put32(14);
    put32(14);
    bytes += frameBytes(0);
  }
  writeAll(path, bytes);
  for (auto method : {ReadMethod::Auto, ReadMethod::Libpcap}) {
    std::string error;
    auto r = CaptureReader::open(path, error, method);
    ASSERT_TRUE(r) << error;
    std::vector<std::int64_t> got;
    for (CapturedFrame f; r->next(f);)
      got.push_back(f.timestampNs);
    EXPECT_EQ(got, (std::vector<std::int64_t>{4'294'967'295'000'000'000, 4'294'967'295'000,
                                              4'294'967'295'000'000'000 + 4'294'967'295'000}))
        << (method == ReadMethod::Auto ? "mapped" : "libpcap");
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::packets_io
