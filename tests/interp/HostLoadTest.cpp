// The host-load rule the interpreter's thread count and the measured CPU backends share: busy
// means more runnable threads than processors plus one, and only then is there a note to show.
#include "support/HostLoad.h"

#include <gtest/gtest.h>

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
