// Host::findMr finds an MR by its key (rkey for a remote access, lkey for a local one) in one
// PD: registering many MRs, overlapping ranges, deregistration and SEND_WITH_INV's invalidation.
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "rdmascope/sim/network.h"

namespace rdmascope::sim {
namespace {

struct Mrs {
  Network net{Network::defaultConfig()};
  Host& h = net.host(0);
  std::uint32_t pd1 = h.allocPd().value;
  std::uint32_t pd2 = h.allocPd().value;
  std::uint64_t buf = h.allocate(1 << 16);

  MemoryRegionInfo reg(std::uint32_t pd, std::uint64_t off, std::uint64_t len, unsigned acc) {
    auto r = h.regMr(pd, buf + off, len, acc);
    EXPECT_TRUE(r.ok()) << r.status.message;
    return r.value;
  }
};

constexpr unsigned kRw = access::kLocalWrite | access::kRemoteWrite | access::kRemoteRead;

void expectSame(const MemoryRegionInfo* found, const MemoryRegionInfo& mr) {
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->lkey, mr.lkey);
  EXPECT_EQ(found->rkey, mr.rkey);
  EXPECT_EQ(found->addr, mr.addr);
  EXPECT_EQ(found->length, mr.length);
  EXPECT_EQ(found->pd, mr.pd);
}

TEST(MrLookup, EveryKeyFindsItsOwnMrAmongMany) {
  Mrs m;
  std::vector<MemoryRegionInfo> all;
  for (int i = 0; i < 300; ++i) {
    // overlapping ranges on purpose: several MRs cover the same bytes
    all.push_back(m.reg(i % 2 ? m.pd2 : m.pd1, static_cast<std::uint64_t>(i % 7) * 512,
                        4096 + static_cast<std::uint64_t>(i) * 8, i % 3 ? kRw : 0));
  }
  for (const MemoryRegionInfo& mr : all) {
    expectSame(m.h.findMr(mr.pd, mr.lkey, false), mr);
    if (mr.rkey != 0) {
      expectSame(m.h.findMr(mr.pd, mr.rkey, true), mr);
    } else {
      // no remote access: rkey 0, and the lkey's value names nothing remotely
      EXPECT_EQ(m.h.findMr(mr.pd, mr.lkey, true), nullptr);
    }
    // another PD, or a key whose pool index is right but whose variant byte is not
    EXPECT_EQ(m.h.findMr(mr.pd == m.pd1 ? m.pd2 : m.pd1, mr.lkey, false), nullptr);
    EXPECT_EQ(m.h.findMr(mr.pd, mr.lkey ^ 0x01, false), nullptr);
    EXPECT_EQ(m.h.findMr(mr.pd, mr.lkey ^ 0x80, false), nullptr);
  }
  EXPECT_EQ(m.h.findMr(m.pd1, 0, true), nullptr);
  EXPECT_EQ(m.h.findMr(m.pd1, 0, false), nullptr);
  EXPECT_EQ(m.h.findMr(m.pd1, (301u << 8) | 1u, false), nullptr);  // past the last index
  EXPECT_EQ(m.h.findMr(m.pd1, 0xffffffffu, false), nullptr);
}

TEST(MrLookup, DeregisteredKeysFindNothingAndOverlappingMrsStay) {
  Mrs m;
  const MemoryRegionInfo a = m.reg(m.pd1, 0, 8192, kRw);
  const MemoryRegionInfo b = m.reg(m.pd1, 0, 8192, kRw);  // the same bytes
  const MemoryRegionInfo c = m.reg(m.pd1, 4096, 8192, kRw);
  ASSERT_TRUE(m.h.deregMr(b.lkey).ok());
  EXPECT_EQ(m.h.findMr(m.pd1, b.lkey, false), nullptr);
  EXPECT_EQ(m.h.findMr(m.pd1, b.rkey, true), nullptr);
  expectSame(m.h.findMr(m.pd1, a.lkey, false), a);
  expectSame(m.h.findMr(m.pd1, a.rkey, true), a);
  expectSame(m.h.findMr(m.pd1, c.rkey, true), c);
  EXPECT_EQ(m.h.deregMr(b.lkey).errnum, EINVAL);  // once only
  // a new registration of the same range gets new keys; the old ones stay dead
  const MemoryRegionInfo d = m.reg(m.pd1, 0, 8192, kRw);
  EXPECT_NE(d.lkey, b.lkey);
  expectSame(m.h.findMr(m.pd1, d.lkey, false), d);
  EXPECT_EQ(m.h.findMr(m.pd1, b.lkey, false), nullptr);
  ASSERT_TRUE(m.h.deregMr(a.lkey).ok());
  ASSERT_TRUE(m.h.deregMr(d.lkey).ok());
  EXPECT_EQ(m.h.findMr(m.pd1, a.rkey, true), nullptr);
  EXPECT_EQ(m.h.findMr(m.pd1, d.rkey, true), nullptr);
  expectSame(m.h.findMr(m.pd1, c.lkey, false), c);
  EXPECT_EQ(m.h.memoryRegions().size(), 4u);  // the records stay; their keys do not
}

TEST(MrLookup, InvalidatedRkeyFindsNothingElseUntouched) {
  Mrs m;
  const MemoryRegionInfo a = m.reg(m.pd1, 0, 4096, kRw);
  const MemoryRegionInfo b = m.reg(m.pd2, 0, 4096, kRw);
  const MemoryRegionInfo local = m.reg(m.pd1, 0, 4096, access::kLocalWrite);
  EXPECT_FALSE(m.h.invalidateRkey(0));
  EXPECT_FALSE(m.h.invalidateRkey(local.lkey));  // its rkey is 0: no MR has this rkey
  EXPECT_FALSE(m.h.invalidateRkey(a.rkey ^ 0x01));
  expectSame(m.h.findMr(m.pd1, local.lkey, false), local);
  ASSERT_TRUE(m.h.invalidateRkey(a.rkey));
  EXPECT_EQ(m.h.findMr(m.pd1, a.rkey, true), nullptr);
  EXPECT_EQ(m.h.findMr(m.pd1, a.lkey, false), nullptr);  // the whole MR, as rxe's state
  expectSame(m.h.findMr(m.pd2, b.rkey, true), b);
  // an invalidated MR is still registered: dereg succeeds once
  EXPECT_TRUE(m.h.deregMr(a.lkey).ok());
  EXPECT_EQ(m.h.deregMr(a.lkey).errnum, EINVAL);
}

}  // namespace
}  // namespace rdmascope::sim
