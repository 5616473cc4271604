// The event engine runs events in (time, order scheduled) whichever way they were scheduled.

#include "rdmascope/sim/simulator.h"

#include <gtest/gtest.h>

#include <vector>

namespace rdmascope::sim {
namespace {

struct Recorder : EventTarget {
  std::vector<std::uint64_t> ran;
  void onEvent(std::uint32_t, std::uint64_t arg) override { ran.push_back(arg); }
};

TEST(Simulator, RunsEventsByTimeThenByTheOrderTheyWereScheduled) {
  Simulator sim;
  Recorder r;
  sim.schedule(SimTime::ns(30), &r, 0, 1);
  sim.schedule(SimTime::ns(10), &r, 0, 2);  // earlier than one already pending
  sim.schedule(SimTime::ns(30), &r, 0, 3);  // a tie: after 1
  sim.schedule(SimTime::ns(50), &r, 0, 4);
  sim.schedule(SimTime::ns(10), &r, 0, 5);  // a tie with 2: after it
  sim.schedule(SimTime::ns(20), [&] {
    r.ran.push_back(6);
    sim.schedule(SimTime{}, &r, 0, 7);         // now, before 1 and 3
    sim.schedule(SimTime::ns(10), &r, 0, 8);   // at 30: after 1 and 3
    sim.schedule(SimTime::ns(40), &r, 0, 9);   // at 60
    sim.schedule(SimTime::ns(30), &r, 0, 10);  // at 50: after 4
  });
  sim.run();
  EXPECT_EQ(r.ran, (std::vector<std::uint64_t>{2, 5, 6, 7, 1, 3, 8, 4, 10, 9}));
  EXPECT_EQ(sim.now(), SimTime::ns(60));
  EXPECT_EQ(sim.eventsRun(), 10u);
}

TEST(Simulator, CancelledEventsNeverRunWhereverTheyWait) {
  Simulator sim;
  std::vector<int> ran;
  const EventId late = sim.schedule(SimTime::ns(100), [&] { ran.push_back(1); });
  const EventId early = sim.schedule(SimTime::ns(10), [&] { ran.push_back(2); });
  sim.schedule(SimTime::ns(50), [&] { ran.push_back(3); });
  const EventId last = sim.schedule(SimTime::ns(200), [&] { ran.push_back(4); });
  EXPECT_EQ(sim.pendingEvents(), 4u);
  EXPECT_TRUE(sim.cancel(early));
  EXPECT_TRUE(sim.cancel(last));
  EXPECT_FALSE(sim.cancel(last));
  EXPECT_EQ(sim.pendingEvents(), 2u);
  EXPECT_EQ(sim.nextEventTime(), SimTime::ns(50));
  sim.run();
  EXPECT_EQ(ran, (std::vector<int>{3, 1}));
  EXPECT_FALSE(sim.cancel(late));
  EXPECT_EQ(sim.pendingEvents(), 0u);
}

}  // namespace
}  // namespace rdmascope::sim
