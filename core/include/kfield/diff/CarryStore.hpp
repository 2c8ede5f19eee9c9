// Where the reverse keeps its window checkpoints when they do not stay in memory: a store of
// doubles on the host side, written and read by offset. io::spillStore(folder) keeps them in an
// HDF5 file (deleted when the pass ends); GradientOptions::spill hands one to a gradient.
#ifndef KFIELD_DIFF_CARRYSTORE_HPP
#define KFIELD_DIFF_CARRYSTORE_HPP

#include <cstdint>

namespace kfield::diff {

class CarryStore {
 public:
  virtual ~CarryStore() = default;
  // Room for `words` doubles; what an earlier pass held is dropped.
  virtual void open(std::int64_t words) = 0;
  virtual void write(std::int64_t offset, const double* values, std::int64_t count) = 0;
  virtual void read(std::int64_t offset, double* values, std::int64_t count) = 0;
  virtual void close() = 0;  // frees the room (deletes the file)
};

}  // namespace kfield::diff

#endif
