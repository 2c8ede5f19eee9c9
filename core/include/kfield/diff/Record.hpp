// The single live recording of a recording forward: a reverse holds it while it reads the
// checkpoints, and a new recording makes older ones stale. Thread-safe.
#ifndef KFIELD_DIFF_RECORD_HPP
#define KFIELD_DIFF_RECORD_HPP

#include <cstdint>
#include <mutex>

namespace kfield::diff {

class RecordSlot {
 public:
  enum class Begin : int { Ok, Held, Live };

  // Starts a recording: refused while a reverse holds the last record (Held) or while that
  // record is live, not yet consumed (Live); otherwise the generation moves on and every
  // older record is stale.
  Begin begin() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (holders_ > 0) return Begin::Held;
    if (live_) return Begin::Live;
    ++generation_;
    live_ = true;
    return Begin::Ok;
  }
  // A recording that failed part-way leaves nothing live.
  void abandon() {
    std::lock_guard<std::mutex> lock(mutex_);
    live_ = false;
  }
  // The generation of the last recording begun.
  std::uint64_t generation() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return generation_;
  }
  // Holds the record of generation g for one read; false, and nothing held, when it is stale
  // (or was abandoned).
  bool hold(std::uint64_t g) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (g != generation_ || !live_) return false;
    ++holders_;
    return true;
  }
  // Ends one read of generation g; consumed (a finished reverse, or a keep) frees the slot for
  // the next recording. False when the generation moved while it was held.
  bool release(std::uint64_t g, bool consumed) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (holders_ > 0) --holders_;
    if (g != generation_) return false;
    if (consumed) live_ = false;
    return true;
  }

 private:
  mutable std::mutex mutex_;
  std::uint64_t generation_ = 0;
  int holders_ = 0;
  bool live_ = false;
};

}  // namespace kfield::diff

#endif
