// decode reads captures as tshark users expect: `-r -` from standard input, a FIFO, pcapng
// sections of either byte order, and the largest pcap time stamps without negative times.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

RunResult runShell(const std::string& script) {
  return runProgram("/bin/sh", {"-c", script});
}

TEST(DecodeInput, DashRDashReadsStandardInput) {
  const auto file = runCli({"decode", golden("rocev2-mixed.pcap"), "-V"});
  ASSERT_EQ(file.exitCode, 0) << file.err;
  const std::string cli = shellQuote(RDMASCOPE_CLI);
  auto piped =
      runShell("cat " + shellQuote(golden("rocev2-mixed.pcap")) + " | " + cli + " decode -r - -V");
  EXPECT_EQ(piped.exitCode, 0) << piped.err;
  EXPECT_EQ(piped.out, file.out);
  // The positional form takes "-" too, and --verify reads the stream like a file.
  piped = runShell(cli + " decode --verify - < " + shellQuote(golden("rocev2-mixed.pcap")));
  EXPECT_EQ(piped.exitCode, 1) << piped.err;
  EXPECT_EQ(piped.out, "frame 8: bad CRC\n9 frames: 8 good CRC, 1 bad CRC, 0 without CRC\n");
  // What tcpdump -w - writes: a pcap stream, here through tcpdump itself when it is installed.
  if (std::system("tcpdump --version >/dev/null 2>&1") == 0) {
    const std::string keys = " -T fields -e frame.number -e eth.src -e ip.dst -e frame.len";
    piped = runShell("tcpdump -r " + shellQuote(golden("net-mixed.pcap")) + " -w - 2>/dev/null | " +
                     cli + " decode -r -" + keys);
    EXPECT_EQ(piped.exitCode, 0) << piped.err;
    // tcpdump writes microsecond stamps: everything but the times is the same.
    EXPECT_EQ(piped.out,
              runShell(cli + " decode " + shellQuote(golden("net-mixed.pcap")) + keys).out);
  }
  // Empty or foreign input is a one-line error naming standard input.
  auto bad = runShell(cli + " decode -r - < /dev/null");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(bad.err, "rdmascope-cli: standard input is not a pcap or pcapng capture\n");
  bad =
      runShell("head -c 90 " + shellQuote(golden("net-mixed.pcap")) + " | " + cli + " decode -r -");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(lines(bad.err).size(), 1u) << bad.err;
  EXPECT_EQ(bad.err.rfind("rdmascope-cli: standard input: truncated record at frame ", 0), 0u)
      << bad.err;
}

TEST(DecodeInput, ReadsAFifo) {
  const std::string fifo = tempPath("capture.fifo");
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r =
      runShell("cat " + shellQuote(golden("net-mixed.pcap")) + " > " + shellQuote(fifo) + " & " +
               shellQuote(RDMASCOPE_CLI) + " decode " + shellQuote(fifo) + "; wait");
  ::unlink(fifo.c_str());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, runCli({"decode", golden("net-mixed.pcap")}).out);
}

// editcap writes pcapng in the machine's byte order; the sections are rewritten here into the
// other one and joined, and tshark and decode read the result alike.
TEST(DecodeInput, PcapngSectionsOfBothByteOrdersReadLikeTshark) {
  if (std::system("editcap --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no editcap";
  const std::string le = tempPath("le.pcapng");
  ASSERT_EQ(std::system(("editcap -F pcapng " + golden("rocev2-mixed.pcap") + " " + le).c_str()),
            0);
  const std::string bytes = readFile(le);
  std::remove(le.c_str());
  // Swap every block to big-endian: type, lengths and the fixed fields of SHB/IDB/EPB; the
  // options are dropped but for the interface's time stamp resolution.
  auto get32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  auto put32 = [](std::string& s, std::uint32_t v) {
    for (int i = 3; i >= 0; --i)
      s.push_back(static_cast<char>(v >> (8 * i)));
  };
  auto put16 = [](std::string& s, std::uint16_t v) {
    s.push_back(static_cast<char>(v >> 8));
    s.push_back(static_cast<char>(v));
  };
  std::string big;
  for (std::size_t at = 0; at + 12 <= bytes.size();) {
    const std::uint32_t type = get32(at), len = get32(at + 4);
    ASSERT_GE(len, 12u);
    std::string body;
    if (type == 0x0a0d0d0a) {
      put32(body, 0x1a2b3c4d);
      put16(body, 1);
      put16(body, 0);
      put32(body, 0xffffffff);
      put32(body, 0xffffffff);
    } else if (type == 1) {
      std::uint16_t link;
      std::memcpy(&link, bytes.data() + at + 8, 2);
      put16(body, link);
      put16(body, 0);
      put32(body, get32(at + 12));
      put16(body, 9);  // if_tsresol: nanoseconds, as editcap writes for this capture
      put16(body, 1);
      body.append("\x09\0\0\0", 4);
      put32(body, 0);  // end of options
    } else if (type == 6) {
      for (std::size_t k = 8; k < 28; k += 4)
        put32(body, get32(at + k));
      const std::uint32_t caplen = get32(at + 20);
      body.append(bytes, at + 28, (caplen + 3) / 4 * 4);
    }
    if (!body.empty() || type == 0x0a0d0d0a) {
      put32(big, type);
      put32(big, static_cast<std::uint32_t>(body.size() + 12));
      big += body;
      put32(big, static_cast<std::uint32_t>(body.size() + 12));
    }
    at += len;
  }
  const std::string joined = tempPath("mixed.pcapng");
  {
    std::ofstream out(joined, std::ios::binary);
    out << bytes << big << bytes;
  }
  const std::string keys =
      " -T fields -e frame.number -e frame.time_epoch -e eth.src -e infiniband.bth.psn";
  const auto ours = runShell(shellQuote(RDMASCOPE_CLI) + " decode " + shellQuote(joined) + keys);
  EXPECT_EQ(ours.exitCode, 0) << ours.err;
  EXPECT_EQ(lines(ours.out).size(), 27u);
  if (std::system("tshark -v >/dev/null 2>&1") == 0) {
    const auto theirs = runShell("tshark -r " + shellQuote(joined) + keys + " 2>/dev/null");
    EXPECT_EQ(ours.out, theirs.out);
  }
  // --verify over the three sections finds the bad frame of each.
  const auto verify = runCli({"decode", "--verify", joined});
  EXPECT_EQ(verify.exitCode, 1);
  EXPECT_EQ(verify.out,
            "frame 8: bad CRC\nframe 17: bad CRC\nframe 26: bad CRC\n27 frames: 24 good CRC, 3 "
            "bad CRC, 0 without CRC\n");
  std::remove(joined.c_str());
}

// pcap stores seconds and fractions as unsigned 32-bit numbers: frames stamped 0xFFFFFFFF
// microseconds or seconds are late, never before 1970 or before the first frame.
TEST(DecodeInput, LargestPcapTimeStampsGiveNoNegativeTimes) {
  const std::string path = tempPath("stamps.pcap");
  {
    std::string b;
    auto put32 = [&](std::uint32_t v) {
      for (int i = 0; i < 4; ++i)
        b.push_back(static_cast<char>(v >> (8 * i)));
    };
    put32(0xa1b2c3d4);
    b.append("\x02\x00\x04\x00", 4);
    put32(0);
    put32(0);
    put32(65535);
    put32(1);
    const std::uint32_t stamps[][2] = {
        {1700000000u, 0}, {1700000000u, 0xffffffffu}, {0xffffffffu, 0}, {0xffffffffu, 0xffffffffu}};
    for (const auto& s : stamps) {
      put32(s[0]);
      put32(s[1]);
      put32(60);
      put32(60);
      b.append(12, '\x02');
      b.append("\x08\x00", 2);
      b.append(46, '\0');
    }
    std::ofstream(path, std::ios::binary) << b;
  }
  const auto r = runCli(
      {"decode", path, "-T", "fields", "-e", "frame.time_relative", "-e", "frame.time_epoch"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  // Relative times are doubles: compared to the microsecond; epochs are exact.
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 4u) << r.out;
  const double relative[] = {0, 4294.967295, 2594967295, 2594971589.967295};
  const char* epoch[] = {"1700000000.000000000", "1700004294.967295000", "4294967295.000000000",
                         "4294971589.967295000"};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto tab = rows[i].find('\t');
    ASSERT_NE(tab, std::string::npos) << rows[i];
    EXPECT_NEAR(std::stod(rows[i].substr(0, tab)), relative[i], 1e-6) << rows[i];
    EXPECT_EQ(rows[i].substr(tab + 1), epoch[i]);
  }
  EXPECT_EQ(r.out.find('-'), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::cli::test
