// Learner checkpoints in HDF5 (docs/file-format.md, kind "learner-checkpoint"): a LearnerState
// whole, written atomically, read back with every dataset's type, shape and checksum checked.
//
//   io::saveCheckpoint("run.h5", learner.state());          // or (..., placement) over ranks
//   learner.resume(io::loadCheckpoint("run.h5"));            // any owner, thread or rank count
#ifndef KFIELD_IO_CHECKPOINT_HPP
#define KFIELD_IO_CHECKPOINT_HPP

#include "kfield/io/FileError.hpp"
#include "kfield/learn/LearnerState.hpp"
#include "kfield/learn/OwnerPlacement.hpp"

#include <string>

namespace kfield::io {

struct CheckpointOptions {
  // Versions kept: the new file at PATH, the previous ones as PATH.1 (newest) .. PATH.<keep-1>.
  int keep = 1;
};

// Writes PATH.partial, flushes it to disk and renames it over PATH, so a crash at any moment
// leaves the previous checkpoint whole. Throws FileError naming the file on any failure.
void saveCheckpoint(const std::string& path, const LearnerState& state,
                    const CheckpointOptions& options = {});

// Over the ranks of a placement (collective: every rank calls it): rank 0 writes (every
// replica holds the same state) and every rank returns once the file is complete, or throws
// the same FileError when rank 0 could not write it; in process, saveCheckpoint above.
void saveCheckpoint(const std::string& path, const LearnerState& state,
                    const OwnerPlacement& placement, const CheckpointOptions& options = {});

// Throws FileError naming the file and the problem: missing, a directory, unreadable, not
// HDF5, truncated, another kind or format version, a missing dataset or attribute, a wrong
// type or shape, a checksum mismatch.
LearnerState loadCheckpoint(const std::string& path);

}  // namespace kfield::io

#endif
