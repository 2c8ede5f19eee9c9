// What the tests run under mpirun share: the world's rank count, and an uneven partition.
#ifndef KFIELD_TEST_DISTRIBUTEDRUNS_HPP
#define KFIELD_TEST_DISTRIBUTEDRUNS_HPP

#include <kfield/net/DevicePartition.hpp>

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace kfield::test {

inline int worldRanks() {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

// Uneven parts, the first one empty (with one rank: the whole network).
inline DevicePartition lopsided(std::int64_t devices, int ranks) {
  std::vector<std::int64_t> bounds{0};
  for (int r = 1; r < ranks; ++r) {
    bounds.push_back(devices * (r - 1) * (r - 1) / ((ranks - 1) * (ranks - 1)));
  }
  bounds.push_back(devices);
  return DevicePartition::fromBounds(bounds, devices);
}

}  // namespace kfield::test

#endif
