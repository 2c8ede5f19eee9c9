// The progress of a training run on the terminal: one line redrawn in place (a bar, the step,
// the loss, the gradient's norm, steps per second, the time left); plain lines, a few per run,
// when the output is not a terminal.
#ifndef KFIELD_APPS_TRAIN_PROGRESS_HPP
#define KFIELD_APPS_TRAIN_PROGRESS_HPP

#include <chrono>
#include <cstdint>
#include <ostream>

namespace kfield::cli {

class Progress {
 public:
  Progress(std::ostream& out, std::int64_t first, std::int64_t last, bool terminal);
  // After step `step` (1-based) with its loss (per device, root mean square) and gradient norm.
  void update(std::int64_t step, double loss, double rms, double gradientNorm, bool checkpointed);
  void finish();

 private:
  std::ostream& out_;
  std::int64_t first_, last_;
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kfield::cli

#endif
