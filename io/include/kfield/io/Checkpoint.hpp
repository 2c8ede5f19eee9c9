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
#include <vector>

namespace kfield::io {

// A field over the devices' positions, for pictures: a learned field beside its exact target.
struct PositionedField {
  std::string name;  // one word: what the field is ("heldout0")
  std::string title;
  std::vector<double> x, y;      // positions
  std::vector<double> values;    // what the program computed
  std::vector<double> expected;  // what it should have (empty when nothing is)
};

// What a training run keeps beside its learner state (kfield train), in /training: its
// configuration, the loss and gradient norm of every step so far, and, at the end, the fields
// of its evaluation.
struct TrainingRecord {
  std::string config;                // JSON
  std::vector<double> loss;          // step s: the batch's mean loss before update s
  std::vector<double> gradientNorm;  // step s: the norm of the mean gradient update s applied
  std::vector<PositionedField> fields;
  std::string report;  // the evaluation as text lines ("" until evaluated)
};

struct CheckpointOptions {
  // Versions kept: the new file at PATH, the previous ones as PATH.1 (newest) .. PATH.<keep-1>.
  int keep = 1;
  const TrainingRecord* training = nullptr;  // also written, in /training
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
// The training record of a checkpoint kfield train wrote; FileError when it has none.
TrainingRecord loadTrainingRecord(const std::string& path);

}  // namespace kfield::io

#endif
