#pragma once
// Two simulated RNICs with an established iWARP connection (TCP handshake and MPA exchange
// done), for tests that post their own operations and analyse what host A captures.

#include <gtest/gtest.h>

#include "rdmascope/sim/iwarp_session.h"
#include "rdmascope/sim/simulator.h"
#include "rdmascope/sim/tcp_engine.h"

namespace rdmascope::analysis::test {

inline sim::TcpNetworkConfig offloadedTcp() {
  sim::TcpNetworkConfig cfg;
  cfg.placement = sim::TcpStackPlacement::Offloaded;
  cfg.serverPort = 20049;
  return cfg;
}

struct IwarpPair {
  IwarpPair() {
    session.connect();
    sim.runWhile([&] { return session.established(); }, sim::SimTime::ms(1000));
    EXPECT_TRUE(session.established());
  }
  sim::Simulator sim{1};
  sim::SimulatorScheduler scheduler{sim};
  sim::TcpNetwork net{scheduler, offloadedTcp()};
  sim::IwarpSession session{net, sim::MpaSettings{}, sim::MpaSettings{}};
};

}  // namespace rdmascope::analysis::test
