// A learner's samples in one file (docs/file-format.md, kind "sample-store"): the sample
// sequence as one n x s float64 dataset and the split it was saved under as owner offsets.
// Each rank reads only its own share, by hyperslab, and holds only that:
//
//   io::saveSamples("samples.h5", system);                   // once, from a whole system
//   DataParallelSystem mine = io::loadSamples("samples.h5", rule, 8, placement);
//   DataParallelLearner<> learner(mine, options);            // options.placement = placement
//
// A learner built from a share has the identities (and resumes the checkpoints) of the learner
// built from the whole system with the same split.
#ifndef KFIELD_IO_SAMPLESTORE_HPP
#define KFIELD_IO_SAMPLESTORE_HPP

#include "kfield/io/FileError.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/OwnerPlacement.hpp"

#include <cstdint>
#include <string>

namespace kfield::io {

// Writes every owner's samples of a whole system, in owner order, atomically (like a
// checkpoint). Throws FileError naming the file, or std::invalid_argument for a system held in
// part or samples not of its width.
void saveSamples(const std::string& path, const DataParallelSystem& system);

// `rule` (its samples, if any, are dropped) with the samples of the store at `path` split
// among `owners` near-equal shares (0: the split they were saved under). In process every
// owner's share is read; over ranks only those of the owners this rank runs, the others left
// empty, with every owner's size in `ownerSizes` (a system held in part). Throws FileError
// naming the file and the problem: not a sample store, samples of another width than the
// rule's, more owners than samples, offsets that are not a split of the samples, a checksum
// mismatch, a share that would not fit in memory; std::invalid_argument for owners < 0 or more
// ranks than owners.
DataParallelSystem loadSamples(const std::string& path, DataParallelSystem rule,
                               std::int64_t owners = 0, const OwnerPlacement& placement = {});

}  // namespace kfield::io

#endif
