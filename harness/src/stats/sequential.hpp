// Adaptive stopping: look at the data at a few fixed round counts, stop at the first clear
// verdict, and split the error rate between the looks.
#pragma once

#include <vector>

namespace perfgate::stats {

// `looks` round counts evenly spaced from min_rounds to max_rounds inclusive, rounded to the
// nearest integer (halves up), duplicates removed, ascending. min_rounds == max_rounds or
// looks == 1 gives the single look {max_rounds}. Throws std::invalid_argument unless
// 1 <= min_rounds <= max_rounds and looks >= 1.
std::vector<int> look_schedule(int min_rounds, int max_rounds, int looks = 4);

// The significance level each look tests at: alpha / looks (Bonferroni). Throws
// std::invalid_argument unless 0 < alpha <= 1 and looks >= 1.
double alpha_per_look(double alpha, int looks);

}  // namespace perfgate::stats
