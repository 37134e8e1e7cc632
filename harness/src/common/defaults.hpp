// What a request means where it leaves something out: one table, read by every struct that
// carries one of these values and by the help text of the flag that sets it, so `--help` and
// the run can never disagree (criterion.rs's defaults, which its partial config is completed
// against).
#pragma once

namespace perfgate::defaults {

inline constexpr double kAlpha = 0.05;  // family-wise error rate of a command's gated comparisons
inline constexpr double kNoise = 0.02;  // the noise band, a fraction: a change within it is none
// How far a ratio may move from the baseline's before it can fail, a fraction (an entry's own wins).
inline constexpr double kBaselineTolerance = 0.05;
inline constexpr const char* kOutDir = "perfgate-out";  // where a command writes its documents
// A catalog scenario's rounds when neither the flags nor its profile say.
inline constexpr int kMinRounds = 8, kMaxRounds = 30, kWarmup = 1;
inline constexpr double kTimeoutS = 600;       // one sample, before it is killed
inline constexpr double kLockTimeoutS = 3600;  // the wait for --lock

}  // namespace perfgate::defaults
