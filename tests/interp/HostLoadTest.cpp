// The host-load rule the interpreter's thread count and the measured CPU backends share: busy
// means more runnable threads than processors plus one, and only then is there a note to show.
#include "support/Error.h"
#include "support/HostLoad.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tessera;

TEST(HostLoad, BusyMeansMoreRunnableThreadsThanProcessorsPlusOne) {
  EXPECT_FALSE((HostLoad{2.5, 2}).busy());
  EXPECT_FALSE((HostLoad{3.0, 2}).busy()) << "one thread to spare for the program itself";
  EXPECT_TRUE((HostLoad{3.1, 2}).busy());
  EXPECT_TRUE((HostLoad{9.3, 2}).busy());
  EXPECT_FALSE((HostLoad{9.3, 16}).busy());
}

TEST(HostLoad, OnlyABusyHostHasANoteAndItSaysWhatToDo) {
  EXPECT_EQ(busyHostNote(HostLoad{1.0, 2}), "");
  const std::string note = busyHostNote(HostLoad{9.3, 2});
  EXPECT_NE(note.find("load 9.3 on 2 processors"), std::string::npos) << note;
  EXPECT_NE(note.find("unreliable"), std::string::npos) << note;
  EXPECT_NE(note.find("--cost analytic:h200"), std::string::npos) << note;
  EXPECT_NE(note.find("not kept in the cost cache"), std::string::npos) << note;
}

// $TESSERA_HOST_LOAD injects a load (the tests of measured costs use it); a malformed value is
// refused by name where it can be reported and never breaks a reading.
TEST(HostLoad, TheVariableStandsInForTheSystemsReading) {
  setenv(kHostLoadVariable, "1000", 1);
  ASSERT_TRUE(hostLoad());
  EXPECT_TRUE(hostLoad()->busy());
  EXPECT_EQ(hostLoad()->loadAverage, 1000.0);
  setenv(kHostLoadVariable, "0", 1);
  EXPECT_FALSE(hostLoad()->busy());
  EXPECT_EQ(hostLoadOverride(), 0.0);
  for (const char* bad : {"busy", "-1", "2x", ""}) {
    setenv(kHostLoadVariable, bad, 1);
    try {
      hostLoadOverride();
      ADD_FAILURE() << "'" << bad << "' was taken as a load";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("TESSERA_HOST_LOAD='") + bad + "'"), std::string::npos) << e.what();
    }
#if defined(__linux__)
    EXPECT_TRUE(hostLoad()) << "the system's reading stands";
#endif
  }
  unsetenv(kHostLoadVariable);
  EXPECT_FALSE(hostLoadOverride());
}

TEST(HostLoad, TheHostSaysItsLoadAndProcessors) {
#if defined(__linux__)
  const std::optional<HostLoad> load = hostLoad();
  ASSERT_TRUE(load) << "Linux reports its load average";
  EXPECT_GE(load->loadAverage, 0.0);
  EXPECT_GE(load->processors, 1);
#else
  GTEST_SKIP() << "the load average is read on Linux only in this test";
#endif
}
