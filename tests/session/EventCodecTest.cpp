// The event log's encoding: every kind survives encode/decode exactly; junk is an Error.
#include "session/EventCodec.h"

#include "SessionTestSupport.h"
#include "session/Session.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
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

TEST(EventCodec, AnAgentDecisionKeepsEveryCandidateAndTheChosenOne) {
  AgentDecided decision{7, 0.4375, 64, {}, 1};
  decision.candidates.push_back({"fuse-conv-relu", {3, 4}, {3, 4}, -0.25, 0.5});
  decision.candidates.push_back({"matmul-assoc", {10, 11, 12}, {7}, 0.125, 0.3});
  decision.candidates.push_back({std::string(kAgentStopAction), {}, {}, 0, 0.2});
  const auto decoded = std::get<AgentDecided>(event_codec::decodePayload("agent_decided", event_codec::encodePayload(decision)));
  EXPECT_EQ(decoded.step, 7);
  EXPECT_EQ(decoded.value, 0.4375);
  EXPECT_EQ(decoded.listed, 64u);
  EXPECT_EQ(decoded.candidates, decision.candidates);
  EXPECT_EQ(decoded.chosen, 1);
  EXPECT_EQ(decoded.candidates[decoded.chosen].rule, "matmul-assoc");
}

TEST(EventCodec, AnAgentDecisionThatDoesNotHoldTogetherIsAnError) {
  // The chosen index past the candidates, and candidate fields of different lengths.
  EXPECT_THROW(event_codec::decodePayload("agent_decided", R"({"s":0,"v":0,"n":1,"r":["a"],"loc":[[1]],"o":[[]],"d":[0],"p":[1],"ch":1})"), Error);
  EXPECT_THROW(event_codec::decodePayload("agent_decided", R"({"s":0,"v":0,"n":2,"r":["a","b"],"loc":[[1]],"o":[[],[]],"d":[0,0],"p":[1,0],"ch":0})"), Error);
  EXPECT_THROW(event_codec::decodePayload("agent_decided", R"({"s":0,"v":0,"n":1,"r":["a"],"loc":[["x"]],"o":[[]],"d":[0],"p":[1],"ch":0})"), Error);
}

// The teaching sample was recorded before agents published decisions: it must load unchanged.
TEST(EventCodec, ASessionRecordedBeforeAgentDecisionsStillLoads) {
  const std::string path = test::tempSessionPath("before-agent-decisions");
  std::filesystem::copy_file(std::string(TESSERA_SOURCE_DIR) + "/samples/teaching/phase_ordering.tsession", path);
  Session session = Session::open(path);
  ASSERT_FALSE(session.runs().empty());
  for (const RunRecord& run : session.runs()) {
    const std::vector<Event> events = session.events(run.id);
    EXPECT_EQ(events.size(), session.eventCount(run.id));
    EXPECT_FALSE(events.empty());
  }
}

} // namespace
} // namespace tessera
