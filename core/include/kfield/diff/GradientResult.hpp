// What a gradient run takes and gives: the loss, the options of the schedule, and the result
// with the schedule's accounting.
#ifndef KFIELD_DIFF_GRADIENTRESULT_HPP
#define KFIELD_DIFF_GRADIENTRESULT_HPP

#include "kfield/Plane.hpp"
#include "kfield/diff/CarryStore.hpp"
#include "kfield/sum/Chunking.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kfield::diff {

// The loss of one sample, at its stop round, summed over devices (canonical reduction):
// SquaredError: (output - target)^2; Output: the program's output itself (any loss written as
// a program expression).
enum class Loss { SquaredError, Output };

// What the tape keeps of each round of the window being reversed. Carry: the carry only
// (states, exports, their keys), and each round runs once more, for its values, when the
// reverse reaches it: about 2 sqrt(S) carries in all, three forwards' work. Values: every value
// of the round as well: no third forward, a plane per operation per round. The same bits.
enum class Tape { Carry, Values };

struct GradientOptions {
  std::int64_t window = 0;       // rounds per window; 0: defaultWindow(the longest stop)
  std::int64_t budgetBytes = 0;  // what one pass may hold; 0: the whole batch in one pass
  std::int64_t leaf = kDefaultLeaf;
  Tape tape = Tape::Carry;
  // Window checkpoints on disk (io::spillStore(folder)) instead of in memory: used when the
  // budget cannot hold the batch in one pass with them in memory, or always with spillAlways.
  // The same bits either way.
  std::shared_ptr<CarryStore> spill;
  bool spillAlways = false;
  // The program's compiled reverse rounds where it has them (kfield/diff/CompiledReverse.hpp),
  // on host backends with the carry tape; false: the interpreted reverse. The same bits.
  bool compiledReverse = true;
};

// What the run did, summed over passes.
struct Schedule {
  std::int64_t passes = 0;
  std::int64_t window = 0;
  std::int64_t samplesPerPass = 0;
  std::int64_t recordedRounds = 0;    // rounds of the recording forward
  std::int64_t recomputedRounds = 0;  // rounds the reverse ran again (for the tape, for values)
  std::int64_t checkpoints = 0;       // carries saved at window starts
  std::int64_t spilledBytes = 0;      // of them written to the spill store (0: in memory)
  std::int64_t maxTapeRows = 0;       // rounds on the tape at once, at most the window
  std::int64_t vjps = 0;              // (sample, round) pairs stepped back
};

struct GradientResult {
  double loss = 0.0;               // canonical sum over samples
  std::vector<double> sampleLoss;  // per sample
  std::vector<double> gradient;    // per parameter value, the program's parameter vector
  std::vector<std::vector<double>> sampleGradient;  // [sample][parameter value]
  std::map<std::string, HostPlane> sensorGradient;  // per differentiated sensor: devices x samples
  Schedule schedule;
  std::uint64_t forwardBytes = 0;  // the simulation's planes, in the largest pass
  std::uint64_t reverseBytes = 0;  // checkpoints, tape and adjoints, in the largest pass
  std::uint64_t carryBytes = 0;    // one carry (states, exports, keys) of the largest pass
};

}  // namespace kfield::diff

#endif
