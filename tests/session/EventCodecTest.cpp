// The event log's encoding: every kind survives encode/decode exactly; junk is an Error.
#include "session/EventCodec.h"

#include "SessionTestSupport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

namespace tessera {
namespace {

TEST(EventCodec, EveryKindRoundTripsExactly) {
  std::vector<Event> events = test::eventsOfEveryKind();
  std::set<size_t> kinds;
  for (const Event& event : events) {
    kinds.insert(event.payload.index());
    std::string json = event_codec::encodePayload(event.payload);
    Event decoded{event.sequence, event.seconds, event_codec::decodePayload(eventKindName(event.kind()), json)};
    EXPECT_TRUE(test::sameEvent(event, decoded)) << eventKindName(event.kind()) << ": " << json;
  }
  EXPECT_EQ(kinds.size(), static_cast<size_t>(EventKind::Count)) << "the sample must hold every kind";
}

TEST(EventCodec, EncodingIsCompactJson) {
  std::string json = event_codec::encodePayload(EventPayload{ClassesMerged{3, 9}});
  EXPECT_EQ(json.find(' '), std::string::npos) << json;
  EXPECT_EQ(json.find('\n'), std::string::npos) << json;
  EXPECT_LT(json.size(), 20u) << json;
}

TEST(EventCodec, NonFiniteCostsSurvive) {
  EventPayload payload = BestCostChanged{0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
  auto decoded = std::get<BestCostChanged>(event_codec::decodePayload("best_cost_changed", event_codec::encodePayload(payload)));
  EXPECT_TRUE(std::isinf(decoded.previousMs) && decoded.previousMs < 0);
  EXPECT_TRUE(std::isnan(decoded.costMs));
}

TEST(EventCodec, KindNamesMapBack) {
  for (int i = 0; i < static_cast<int>(EventKind::Count); ++i)
    EXPECT_EQ(event_codec::kindFromName(eventKindName(static_cast<EventKind>(i))), static_cast<EventKind>(i));
  EXPECT_THROW(event_codec::kindFromName("no_such_kind"), Error);
}

TEST(EventCodec, JunkPayloadsAreErrors) {
  EXPECT_THROW(event_codec::decodePayload("enode_added", "{not json"), Error);
  EXPECT_THROW(event_codec::decodePayload("enode_added", "[1,2]"), Error);
  EXPECT_THROW(event_codec::decodePayload("enode_added", R"({"c":1,"op":"NoSuchOp","p":0,"a":0,"ch":[]})"), Error);
  EXPECT_THROW(event_codec::decodePayload("classes_merged", R"({"k":"three","a":9})"), Error);
  EXPECT_THROW(event_codec::decodePayload("user_decision", R"({"k":"dance","r":"","s":0})"), Error);
  EXPECT_THROW(event_codec::decodePayload("best_cost_changed", R"({"s":0,"prev":"lots","ms":1})"), Error);
  EXPECT_THROW(event_codec::decodePayload("rule_applied", "{}"), Error);
}

} // namespace
} // namespace tessera
