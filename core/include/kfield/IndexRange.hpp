// A half-open run of indices [begin, end): the owners a replica holds, the devices a rank owns.
#ifndef KFIELD_INDEXRANGE_HPP
#define KFIELD_INDEXRANGE_HPP

#include <cstdint>

namespace kfield {

struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
};

}  // namespace kfield

#endif
