#include "Progress.hpp"

#include <cstdio>
#include <string>

namespace kfield::cli {

namespace {
std::string duration(double seconds) {
  char text[32];
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, (s / 60) % 60);
  } else {
    std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
  }
  return text;
}
}  // namespace

Progress::Progress(std::ostream& out, std::int64_t first, std::int64_t last, bool terminal)
    : out_(out),
      first_(first),
      last_(last),
      terminal_(terminal),
      start_(std::chrono::steady_clock::now()) {}

void Progress::update(std::int64_t step, double loss, double rms, double gradientNorm,
                      bool checkpointed) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? double(step - first_) / elapsed : 0.0;
  const double left = rate > 0 ? double(last_ - step) / rate : 0.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "step %lld/%lld  loss %.4g (rms %.4g)  |grad| %.3g  %.2f steps/s  ETA %s%s",
                static_cast<long long>(step), static_cast<long long>(last_), loss, rms,
                gradientNorm, rate, duration(left).c_str(), checkpointed ? "  [checkpoint]" : "");
  if (terminal_) {
    constexpr int kWidth = 24;
    const auto filled = static_cast<int>(kWidth * double(step) / double(last_ > 0 ? last_ : 1));
    std::string bar(std::size_t(filled), '#');
    bar.resize(kWidth, '.');
    out_ << "\r\033[K[" << bar << "] " << line << std::flush;
    drawn_ = true;
    return;
  }
  // Not a terminal: about twenty lines a run, and every checkpoint.
  const std::int64_t every = (last_ - first_) / 20 > 1 ? (last_ - first_) / 20 : 1;
  if (checkpointed || step == last_ || (step - first_) % every == 0)
    out_ << line << "\n" << std::flush;
}

void Progress::finish() {
  if (terminal_ && drawn_) out_ << "\n" << std::flush;
  drawn_ = false;
}

}  // namespace kfield::cli
