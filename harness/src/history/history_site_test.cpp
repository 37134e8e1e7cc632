// The history site's pieces that are perfgate's own arithmetic: axis ticks, the sparkline's
// thinning, and the bisect command a regression offers.
#include <gtest/gtest.h>

#include "history/history_site_series.hpp"

using namespace perfgate;

TEST(HistorySite, TicksAreRoundNumbersInsideTheRange) {
  EXPECT_EQ(history::nice_ticks(0.48, 0.67, 6), (std::vector<double>{0.5, 0.55, 0.6, 0.65}));
  const auto t = history::nice_ticks(-3, 1207, 6);
  EXPECT_EQ(t.front(), 0);
  EXPECT_EQ(t.back(), 1000);
  EXPECT_EQ(t[1] - t[0], 250);
  EXPECT_EQ(history::nice_ticks(2, 2, 6), std::vector<double>{2});
}

TEST(HistorySite, SparklineKeepsShortSeriesAndThinsLongOnes) {
  std::vector<double> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i < 500 ? 1.0 : 2.0;
  EXPECT_EQ(history::sparkline({1, 2, 3}, 200), (std::vector<double>{1, 2, 3}));
  const auto s = history::sparkline(v, 200);
  ASSERT_EQ(s.size(), 200u);
  EXPECT_EQ(s.front(), 1.0);
  EXPECT_EQ(s[99], 1.0);
  EXPECT_EQ(s[100], 2.0);  // the step stays where it was
}

TEST(HistorySite, BisectCommandOfACatalogScenarioAndOfACommand) {
  const history::SeriesQuery key{"upload_spool", "quick", "ratio", "after", "syscalls"};
  EXPECT_EQ(history::bisect_command(key, "aaa", "bbb", "build/bin/perfgate run upload_spool --profile quick --seed 3",
                                    "make"),
            "perfgate bisect --good aaa --bad bbb --build make --scenario upload_spool --catalog "
            "build/share/perfgate/scenarios --metric syscalls");
  EXPECT_EQ(history::bisect_command(key, "aaa", "bbb", "perfgate ab -- 'sh -c x' y", "cmake -B b"),
            "perfgate bisect --good aaa --bad bbb --build 'cmake -B b' --metric syscalls -- COMMAND");
  EXPECT_EQ(history::bisect_command(key, "unknown", "bbb", "", "make"), "");
  EXPECT_EQ(history::bisect_command(key, "aaa", "aaa", "perfgate run upload_spool", "make"), "");  // one commit
}
