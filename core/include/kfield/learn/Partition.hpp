// How a learner's work is split: samples into owners' shares (and re-split), and coordinates
// of a separable update among owners, each updating only its own.
#ifndef KFIELD_LEARN_PARTITION_HPP
#define KFIELD_LEARN_PARTITION_HPP

#include "kfield/learn/DataParallelSystem.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace kfield {

// The same learner with its sample sequence split into `owners` contiguous shares whose
// sizes differ by at most one, larger first. Throws std::invalid_argument for owners < 1 and
// for a system held in part.
DataParallelSystem repartitioned(const DataParallelSystem& system, std::int64_t owners);
// The sizes such a split gives: share j of `total` among `parts`.
std::int64_t shareSize(std::int64_t total, std::int64_t parts, std::int64_t j);
std::int64_t shareBegin(std::int64_t total, std::int64_t parts, std::int64_t j);

// Coordinate separability (optimizer-state partitioning).
// With q per-coordinate state words (word j of coordinate i at state index j k + i) and the
// other m - q k words shared: the class of an update slot is i + 1 when it belongs to
// coordinate i (parameter i, one of its state words, mean i) and 0 when shared (a shared
// state word, the rate).
std::int64_t slotClass(std::int64_t k, std::int64_t m, std::int64_t q, std::int64_t slot);
// Separable when q k <= m and every coordinate assignment reads only its coordinate and shared
// slots and every shared assignment only shared slots. `separabilityProblem` names the first
// assignment (and instance) that breaks it; empty when separable.
std::string separabilityProblem(const DataParallelSystem& system, std::int64_t q);
bool separable(const DataParallelSystem& system, std::int64_t q);
// The update assignments one owner runs: every shared one and those of the coordinates it
// owns, in program order (an `each` keeps the runs of its owned instances). Throws
// std::invalid_argument when the update is not separable under q.
PointwiseProgram ownedProgram(const DataParallelSystem& system, std::int64_t q,
                              const std::function<bool(std::int64_t coordinate)>& owns);

}  // namespace kfield

#endif
