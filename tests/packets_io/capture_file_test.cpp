#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "../support/oracle.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::packets_io {
namespace {

using packets::LinkType;

std::string tempPath(const std::string& name) {
  return "/tmp/rdmascope_io_" + std::to_string(::getpid()) + "_" + name;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<CapturedFrame> sampleFrames() {
  std::vector<CapturedFrame> frames;
  for (int i = 0; i < 5; ++i) {
    CapturedFrame f;
    f.data.resize(static_cast<std::size_t>(1 + i * 37));
    for (std::size_t k = 0; k < f.data.size(); ++k)
      f.data[k] = static_cast<std::uint8_t>(k * 13 + static_cast<std::size_t>(i));
    f.originalLength = static_cast<std::uint32_t>(f.data.size() + (i == 3 ? 1000 : 0));
    f.timestampNs = 1'700'000'000'123'456'789 + i * 1'000'000'007LL;
    frames.push_back(std::move(f));
  }
  return frames;
}

void writeFrames(const std::string& path, LinkType link, CaptureFormat format,
                 const std::vector<CapturedFrame>& frames) {
  std::string error;
  auto w = CaptureWriter::open(path, link, error, format);
  ASSERT_TRUE(w) << error;
  for (const auto& f : frames)
    ASSERT_TRUE(w->write(f.data, f.timestampNs, f.originalLength));
  ASSERT_TRUE(w->close()) << w->error();
  EXPECT_EQ(w->framesWritten(), frames.size());
}

std::vector<CapturedFrame> readFrames(const std::string& path, ReadMethod method,
                                      LinkType* link = nullptr, std::string* error = nullptr) {
  std::string e;
  auto r = CaptureReader::open(path, e, method);
  EXPECT_TRUE(r) << e;
  std::vector<CapturedFrame> out;
  if (!r) return out;
  if (link) *link = r->linkType();
  for (CapturedFrame f; r->next(f);)
    out.push_back(f);
  if (error)
    *error = r->error();
  else
    EXPECT_EQ(r->error(), "");
  return out;
}

struct RoundTrip : ::testing::TestWithParam<std::tuple<LinkType, CaptureFormat, ReadMethod>> {};

TEST_P(RoundTrip, FramesComeBackUnchanged) {
  const auto [link, format, method] = GetParam();
  const std::string path = tempPath("roundtrip");
  const auto frames = sampleFrames();
  writeFrames(path, link, format, frames);
  LinkType got{};
  const auto back = readFrames(path, method, &got);
  EXPECT_EQ(got, link);
  ASSERT_EQ(back.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(back[i].data, frames[i].data) << i;
    EXPECT_EQ(back[i].originalLength, frames[i].originalLength) << i;
    EXPECT_EQ(back[i].timestampNs, frames[i].timestampNs) << i;
  }
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    LinkTypesFormatsReaders, RoundTrip,
    ::testing::Combine(::testing::Values(LinkType::Ethernet, LinkType::Erf, LinkType::InfiniBand,
                                         LinkType::Raw),
                       ::testing::Values(CaptureFormat::Pcap, CaptureFormat::Pcapng),
                       ::testing::Values(ReadMethod::Auto, ReadMethod::Libpcap)));

TEST(CaptureReader, ClassicPcapKeepsViewsAndPcapngIsReadAsAStream) {
  const std::string a = tempPath("a.pcap"), b = tempPath("b.pcapng");
  writeFrames(a, LinkType::Ethernet, CaptureFormat::Pcap, sampleFrames());
  writeFrames(b, LinkType::Ethernet, CaptureFormat::Pcapng, sampleFrames());
  std::string e;
  EXPECT_TRUE(CaptureReader::open(a, e)->keepsViews());
  EXPECT_FALSE(CaptureReader::open(a, e, ReadMethod::Libpcap)->keepsViews());
  EXPECT_FALSE(CaptureReader::open(b, e)->keepsViews());
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(CaptureReader, ZeroCopyViewMatchesCopy) {
  const std::string path = tempPath("view.pcap");
  const auto frames = sampleFrames();
  writeFrames(path, LinkType::Ethernet, CaptureFormat::Pcap, frames);
  std::string e;
  auto r = CaptureReader::open(path, e);
  ASSERT_TRUE(r) << e;
  FrameView v;
  std::size_t i = 0;
  while (r->next(v)) {
    ASSERT_LT(i, frames.size());
    EXPECT_TRUE(
        std::equal(v.data.begin(), v.data.end(), frames[i].data.begin(), frames[i].data.end()));
    EXPECT_EQ(v.timestampNs, frames[i].timestampNs);
    EXPECT_EQ(r->framesRead(), ++i);
  }
  EXPECT_EQ(i, frames.size());
  std::remove(path.c_str());
}

TEST(CaptureReader, MicrosecondAndSwappedPcapFromOtherWriters) {
  // A big-endian microsecond pcap (as written on a big-endian host): one 4-byte frame.
  const std::string bytes = std::string("\xa1\xb2\xc3\xd4\x00\x02\x00\x04", 8) +
                            std::string(8, '\0') + std::string("\x00\x00\xff\xff", 4) +
                            std::string("\x00\x00\x00\x01", 4) +                  // Ethernet
                            std::string("\x65\x53\xf1\x00\x00\x00\x00\x07", 8) +  // 7 us
                            std::string("\x00\x00\x00\x04\x00\x00\x00\x40", 8) + "abcd";
  const std::string path = tempPath("be.pcap");
  writeAll(path, bytes);
  for (auto method : {ReadMethod::Auto, ReadMethod::Libpcap}) {
    const auto f = readFrames(path, method);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].timestampNs, 0x6553f100LL * 1'000'000'000 + 7000);
    EXPECT_EQ(f[0].originalLength, 64u);
    EXPECT_EQ(std::string(f[0].data.begin(), f[0].data.end()), "abcd");
  }
  std::remove(path.c_str());
}

TEST(CaptureReader, ReadsPcapngWrittenByEditcap) {
  RDMASCOPE_NEED_ORACLES(Editcap);
  const std::string src = std::string(RDMASCOPE_SOURCE_DIR) + "/tests/golden/net-mixed.pcap";
  const std::string ng = tempPath("editcap.pcapng");
  ASSERT_EQ(std::system((rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Editcap) +
                         " -F pcapng " + src + " " + ng)
                            .c_str()),
            0);
  const auto a = readFrames(src, ReadMethod::Auto);
  const auto b = readFrames(ng, ReadMethod::Auto);
  ASSERT_EQ(a.size(), 8u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].data, b[i].data);
    EXPECT_EQ(a[i].timestampNs, b[i].timestampNs);
  }
  std::remove(ng.c_str());
}

TEST(CaptureWriter, TsharkReadsWhatWeWrite) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  for (auto format : {CaptureFormat::Pcap, CaptureFormat::Pcapng}) {
    const std::string path = tempPath("for_tshark");
    writeFrames(path, LinkType::Ethernet, format, sampleFrames());
    const std::string out = tempPath("tshark_out");
    ASSERT_EQ(std::system((rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Tshark) +
                           " -r " + path +
                           " -T fields -e frame.len -e frame.cap_len -e frame.time_epoch > " + out +
                           " 2>/dev/null")
                              .c_str()),
              0);
    EXPECT_EQ(readAll(out),
              "1\t1\t1700000000.123456789\n"
              "38\t38\t1700000001.123456796\n"
              "75\t75\t1700000002.123456803\n"
              "1112\t112\t1700000003.123456810\n"
              "149\t149\t1700000004.123456817\n");
    std::remove(out.c_str());
    std::remove(path.c_str());
  }
}

TEST(CaptureWriter, CutsFramesAtTheSnapLength) {
  const std::string path = tempPath("snap.pcap");
  std::string e;
  auto w = CaptureWriter::open(path, LinkType::Ethernet, e, CaptureFormat::Pcap, 10);
  ASSERT_TRUE(w);
  const std::vector<std::uint8_t> big(100, 7);
  ASSERT_TRUE(w->write(big, 5));
  ASSERT_TRUE(w->close());
  const auto f = readFrames(path, ReadMethod::Auto);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].data.size(), 10u);
  EXPECT_EQ(f[0].originalLength, 100u);
  std::remove(path.c_str());
}

// A verbs sniffer capture's pcapng: the interface's name, description and comment (where the
// timestamps come from) in its block, the drop count in an interface statistics block that the
// reader reports back; tshark reads the same (capinfos-style fields) where it is installed.
TEST(CaptureWriter, PcapngInterfaceMetadataAndDropsComeBack) {
  const std::string path = tempPath("stats.pcapng");
  std::string e;
  CaptureInterface itf;
  itf.name = "mlx5_0";
  itf.description = "RDMA device mlx5_0, sniffer flow on a raw-packet QP";
  itf.comment = "timestamps: hardware (the device's completion clock, in Unix time)";
  auto w = CaptureWriter::open(path, LinkType::Ethernet, e, CaptureFormat::Pcapng, 262144, itf);
  ASSERT_TRUE(w) << e;
  for (const auto& f : sampleFrames())
    ASSERT_TRUE(w->write(f.data, f.timestampNs, f.originalLength));
  CaptureStatistics st;
  st.endNs = 1'700'000'005'000'000'000;
  st.received = 5;
  st.dropped = 7;
  ASSERT_TRUE(w->writeStatistics(st));
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  FrameView v;
  std::size_t n = 0;
  while (r->next(v))
    ++n;
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(r->error(), "");
  ASSERT_TRUE(r->dropsReported());
  EXPECT_EQ(*r->dropsReported(), 7u);
  const std::string bytes = readAll(path);
  EXPECT_NE(bytes.find(itf.comment), std::string::npos);
  EXPECT_NE(bytes.find(itf.description), std::string::npos);
  // A pcap has no place for statistics: none are reported.
  const std::string classic = tempPath("stats.pcap");
  writeFrames(classic, LinkType::Ethernet, CaptureFormat::Pcap, sampleFrames());
  auto c = CaptureReader::open(classic, error);
  ASSERT_TRUE(c);
  while (c->next(v)) {
  }
  EXPECT_FALSE(c->dropsReported());
  if (rdmascope::testing::haveOracles({rdmascope::testing::Oracle::Tshark})) {
    const std::string out = tempPath("stats_tshark");
    ASSERT_EQ(std::system((rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Tshark) +
                           " -r " + path + " -T fields -e frame.interface_name -c 1 > " + out +
                           " 2>/dev/null")
                              .c_str()),
              0);
    EXPECT_EQ(readAll(out), "mlx5_0\n");
    std::remove(out.c_str());
  }
  std::remove(classic.c_str());
  std::remove(path.c_str());
}

TEST(CaptureWriter, UncreatableFileIsAOneLineError) {
  std::string e;
  EXPECT_FALSE(CaptureWriter::open("/nonexistent/dir/x.pcap", LinkType::Ethernet, e));
  EXPECT_EQ(e, "cannot create /nonexistent/dir/x.pcap: No such file or directory");
}

TEST(CaptureReader, ErrorMessages) {
  std::string e;
  EXPECT_FALSE(CaptureReader::open("/nonexistent/x.pcap", e));
  EXPECT_EQ(e, "cannot open /nonexistent/x.pcap: No such file or directory");
  EXPECT_FALSE(CaptureReader::open("/tmp", e));
  EXPECT_EQ(e, "cannot open /tmp: Is a directory");
  const std::string text = tempPath("text.pcap");
  writeAll(text, "hello, this is not a capture\n");
  EXPECT_FALSE(CaptureReader::open(text, e));
  EXPECT_EQ(e, text + " is not a pcap or pcapng capture");
  writeAll(text, "");
  EXPECT_FALSE(CaptureReader::open(text, e));
  EXPECT_EQ(e, text + " is not a pcap or pcapng capture");
  std::remove(text.c_str());
}

TEST(CaptureReader, TruncatedRecordNamesTheFrame) {
  const std::string path = tempPath("trunc.pcap");
  writeFrames(path, LinkType::Ethernet, CaptureFormat::Pcap, sampleFrames());
  const std::string full = readAll(path);
  writeAll(path, full.substr(0, full.size() - 5));
  std::string error;
  auto frames = readFrames(path, ReadMethod::Auto, nullptr, &error);
  EXPECT_EQ(frames.size(), 4u);
  EXPECT_EQ(error, path + ": truncated record at frame 5 (frame needs 149 bytes, file has 144)");
  frames = readFrames(path, ReadMethod::Libpcap, nullptr, &error);
  EXPECT_EQ(frames.size(), 4u);
  EXPECT_EQ(error.rfind(path + ": truncated record at frame 5 (", 0), 0u) << error;
  // Cut inside a record header.
  writeAll(path, full.substr(0, 24 + 16 + 1 + 3));
  readFrames(path, ReadMethod::Auto, nullptr, &error);
  EXPECT_EQ(error,
            path + ": truncated record at frame 2 (record header needs 16 bytes, file has 3)");
  // Cut inside the file header.
  writeAll(path, full.substr(0, 10));
  EXPECT_FALSE(CaptureReader::open(path, error));
  EXPECT_EQ(error, path + ": truncated pcap file header (10 of 24 bytes)");
  // A corrupt length.
  std::string corrupt = full;
  corrupt[24 + 8] = '\x7f';
  corrupt[24 + 11] = '\x7f';
  writeAll(path, corrupt);
  readFrames(path, ReadMethod::Auto, nullptr, &error);
  EXPECT_EQ(error.rfind(path + ": corrupt record at frame 1 (captured length ", 0), 0u) << error;
  std::remove(path.c_str());
}

// Every prefix of a capture: open either fails with a message naming the file, or reads a
// prefix of the frames and ends cleanly exactly at record boundaries.
TEST(CaptureReader, EveryCutPointIsHandled) {
  const auto frames = sampleFrames();
  for (auto format : {CaptureFormat::Pcap, CaptureFormat::Pcapng}) {
    const std::string path = tempPath("cuts");
    writeFrames(path, LinkType::Ethernet, format, frames);
    const std::string full = readAll(path);
    for (std::size_t cut = 0; cut <= full.size(); ++cut) {
      writeAll(path, full.substr(0, cut));
      for (auto method : {ReadMethod::Auto, ReadMethod::Libpcap}) {
        std::string e;
        auto r = CaptureReader::open(path, e, method);
        if (!r) {
          EXPECT_NE(e.find(path), std::string::npos) << e;
          continue;
        }
        std::size_t n = 0;
        for (CapturedFrame f; r->next(f); ++n) {
          ASSERT_LT(n, frames.size());
          EXPECT_EQ(f.data, frames[n].data);
        }
        if (cut == full.size()) {
          EXPECT_EQ(n, frames.size());
          EXPECT_EQ(r->error(), "");
        }
        if (!r->error().empty()) {
          EXPECT_EQ(r->error().rfind(path + ": ", 0), 0u) << r->error();
        }
      }
    }
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace rdmascope::packets_io
