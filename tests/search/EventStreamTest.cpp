#include "events/EventSink.h"

#include <gtest/gtest.h>

#include <thread>

using namespace tessera;

namespace {
// Wants only the coarse events, like the CLI's progress reporter would.
class CoarseSink : public EventSink {
public:
  void receive(const Event& event) override { received.push_back(event); }
  bool wants(EventKind kind) const override { return kind != EventKind::ENodeAdded; }
  std::vector<Event> received;
};
} // namespace

TEST(EventStream, WithoutListenersNothingIsStamped) {
  EventStream stream;
  EXPECT_FALSE(stream.wants(EventKind::ENodeAdded));
  stream.publish(ENodeAdded{});
  EXPECT_EQ(stream.published(), 0u);
}

TEST(EventStream, SinksGetOnlyTheKindsTheyWantWithSharedSequenceNumbers) {
  EventStream stream;
  CoarseSink coarse;
  EventRecorder all;
  stream.attach(&coarse);
  stream.attach(&all);
  stream.publish(ENodeAdded{3, ENode{}});
  stream.publish(BestCostChanged{1, 2.0, 1.5});
  ASSERT_EQ(all.events.size(), 2u);
  ASSERT_EQ(coarse.received.size(), 1u);
  EXPECT_EQ(coarse.received[0].sequence, 1u);
  EXPECT_EQ(coarse.received[0].kind(), EventKind::BestCostChanged);
  EXPECT_LE(all.events[0].seconds, all.events[1].seconds);
}

TEST(EventQueue, DrainsInOrderAcrossThreads) {
  EventStream stream;
  EventQueue queue;
  stream.attach(&queue);
  std::thread producer([&] {
    for (int i = 0; i < 10000; ++i) stream.publish(MctsNodeVisited{static_cast<uint32_t>(i)});
  });
  std::vector<Event> drained;
  while (drained.size() < 10000) {
    std::vector<Event> batch = queue.drain();
    drained.insert(drained.end(), batch.begin(), batch.end());
  }
  producer.join();
  for (size_t i = 0; i < drained.size(); ++i) EXPECT_EQ(std::get<MctsNodeVisited>(drained[i].payload).id, i);
  EXPECT_EQ(queue.pending(), 0u);
}

TEST(EventNames, EveryKindHasAName) {
  for (size_t k = 0; k < static_cast<size_t>(EventKind::Count); ++k)
    EXPECT_NE(eventKindName(static_cast<EventKind>(k)), "unknown");
}
