// An address's text is what inet_ntop writes (IPv4 is formatted by hand, for speed), and
// parse() reads it back.
#include "rdmascope/packets/address.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <random>

namespace rdmascope::packets {
namespace {

std::string ntop(const IpAddress& a) {
  char buf[INET6_ADDRSTRLEN];
  return inet_ntop(a.v6 ? AF_INET6 : AF_INET, a.bytes.data(), buf, sizeof buf) ? buf : "";
}

TEST(IpAddress, TextIsInetNtopsAndParsesBack) {
  std::mt19937 rng(7);
  std::vector<IpAddress> all;
  for (const auto& q : std::vector<std::array<std::uint8_t, 4>>{{0, 0, 0, 0},
                                                                {255, 255, 255, 255},
                                                                {10, 9, 0, 1},
                                                                {1, 20, 100, 9},
                                                                {192, 168, 0, 255}}) {
    IpAddress a;
    std::copy(q.begin(), q.end(), a.bytes.begin());
    all.push_back(a);
  }
  for (int i = 0; i < 2000; ++i) {
    IpAddress a;
    a.v6 = i % 4 == 0;
    for (auto& b : a.bytes)
      b = static_cast<std::uint8_t>(rng());
    all.push_back(a);
  }
  for (const IpAddress& a : all) {
    const std::string text = a.toString();
    ASSERT_EQ(text, ntop(a));
    const auto back = IpAddress::parse(text);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(back->toString(), text);
  }
}

}  // namespace
}  // namespace rdmascope::packets
