#include "kfield/learn/OwnerPlacement.hpp"

#include <stdexcept>
#include <string>

namespace kfield {

#if KFIELD_ENABLE_MPI
namespace {
void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw std::runtime_error(std::string("kfield owners: ") + call + " failed: " +
                             std::string(text, static_cast<std::size_t>(len)));
  }
}
}  // namespace

OwnerPlacement OwnerPlacement::overRanks(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw std::invalid_argument("OwnerPlacement::overRanks: MPI is not initialised");
  OwnerPlacement p;
  p.comm_ = comm;
  check(MPI_Comm_size(comm, &p.ranks_), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &p.rank_), "MPI_Comm_rank");
  return p;
}
#endif

std::vector<std::vector<unsigned char>> OwnerPlacement::allgather(
    const std::vector<unsigned char>& local) const {
  if (ranks_ == 1) return {local};
#if KFIELD_ENABLE_MPI
  const long long mine = static_cast<long long>(local.size());
  std::vector<long long> sizes(static_cast<std::size_t>(ranks_));
  check(MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, comm_),
        "MPI_Allgather");
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  long long total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (total + sizes[r] > 2147483647LL) {
      throw std::runtime_error("kfield owners: more than 2^31 bytes in one exchange");
    }
    offsets[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(sizes[r]);
    total += sizes[r];
  }
  std::vector<unsigned char> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(local.data(), static_cast<int>(mine), MPI_UNSIGNED_CHAR, all.data(),
                       counts.data(), offsets.data(), MPI_UNSIGNED_CHAR, comm_),
        "MPI_Allgatherv");
  std::vector<std::vector<unsigned char>> out(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    out[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  }
  return out;
#else
  throw std::logic_error("kfield owners: several ranks without MPI");
#endif
}

}  // namespace kfield
