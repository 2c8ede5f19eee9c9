// Shares of a sample sequence, and coordinate separability, checked instance by instance as
// the definition reads (an `each` stands for its instances), with the program one owner runs.
#include "kfield/learn/Partition.hpp"

#include "kfield/impl/Errors.hpp"

#include <string>

namespace kfield {

std::int64_t shareSize(std::int64_t total, std::int64_t parts, std::int64_t j) {
  return total / parts + (j < total % parts ? 1 : 0);
}

std::int64_t shareBegin(std::int64_t total, std::int64_t parts, std::int64_t j) {
  const std::int64_t extra = total % parts;
  return j * (total / parts) + (j < extra ? j : extra);
}

DataParallelSystem repartitioned(const DataParallelSystem& system, std::int64_t owners) {
  if (owners < 1) {
    impl::invalidArgument("kfield::repartitioned",
                          "owners = " + std::to_string(owners) + ", need at least 1");
  }
  if (system.heldInPart()) {
    impl::invalidArgument("kfield::repartitioned",
                          "the system is held in part: read its samples split among " +
                              std::to_string(owners) + " owners instead (io::loadSamples)");
  }
  DataParallelSystem out = system;
  out.owners.assign(static_cast<std::size_t>(owners), {});
  const std::int64_t total = system.totalMass();
  std::int64_t at = 0;
  std::size_t owner = 0;
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) {
      while (at >= shareBegin(total, owners, static_cast<std::int64_t>(owner)) +
                       shareSize(total, owners, static_cast<std::int64_t>(owner))) {
        ++owner;
      }
      out.owners[owner].push_back(sample);
      ++at;
    }
  }
  return out;
}

std::int64_t slotClass(std::int64_t k, std::int64_t m, std::int64_t q, std::int64_t slot) {
  if (slot < k) return slot + 1;
  if (slot < k + q * k) return (slot - k) % k + 1;
  if (slot < k + m) return 0;
  if (slot < 2 * k + m) return slot - (k + m) + 1;
  return 0;
}

namespace {

std::string describeClass(std::int64_t c) {
  return c == 0 ? std::string("shared") : "coordinate " + std::to_string(c - 1);
}

// Instance i of an assignment writes this slot.
std::int64_t destOf(const pointwise::Assignment& a, std::int64_t i) {
  return a.form == pointwise::Form::Each ? a.dest + i : a.dest;
}

std::int64_t instances(const pointwise::Assignment& a) {
  return a.form == pointwise::Form::Set ? 1 : a.count;
}

// Rewrites indexed reads so that instance 0 of the result is instance `first` of `code`.
std::vector<std::uint64_t> shifted(const std::vector<std::uint64_t>& code, std::int64_t first) {
  std::vector<std::uint64_t> out = code;
  for (std::size_t j = 0; j < out.size(); ++j) {
    const std::uint64_t op = pointwise::opcodeOf(out[j]);
    if (op == pointwise::opcode::kConstant) {
      ++j;
    } else if (op == pointwise::opcode::kIndexed) {
      out[j] = pointwise::codeWord(op, pointwise::operandOf(out[j]) + first);
    }
  }
  return out;
}

}  // namespace

std::string separabilityProblem(const DataParallelSystem& system, std::int64_t q) {
  const std::int64_t k = system.parameters;
  const std::int64_t m = system.stateWords();
  if (q < 0 || q * k > m) {
    return "q k = " + std::to_string(q * k) +
           " per-coordinate state words, but m = " + std::to_string(m);
  }
  const auto& assignments = system.update.assignments;
  for (std::size_t j = 0; j < assignments.size(); ++j) {
    const auto& a = assignments[j];
    std::string problem;
    for (std::int64_t i = 0; i < instances(a) && problem.empty(); ++i) {
      const std::int64_t dest = destOf(a, i);
      const std::int64_t own = slotClass(k, m, q, dest);
      pointwise::forEachRead(a.code, [&](std::int64_t slot, bool indexed) {
        const std::int64_t read = indexed ? slot + i : slot;
        const std::int64_t c = slotClass(k, m, q, read);
        if (problem.empty() && c != 0 && c != own) {
          problem = "update assignment " + std::to_string(j) + " writes slot " +
                    std::to_string(dest) + " (" + describeClass(own) + ") and reads slot " +
                    std::to_string(read) + " (" + describeClass(c) + ")";
        }
      });
    }
    if (!problem.empty()) return problem;
  }
  return {};
}

bool separable(const DataParallelSystem& system, std::int64_t q) {
  return separabilityProblem(system, q).empty();
}

PointwiseProgram ownedProgram(const DataParallelSystem& system, std::int64_t q,
                              const std::function<bool(std::int64_t)>& owns) {
  const std::string problem = separabilityProblem(system, q);
  if (!problem.empty()) {
    impl::invalidArgument("kfield::ownedProgram", "the update is not separable under q = " +
                                                      std::to_string(q) + ": " + problem);
  }
  const std::int64_t k = system.parameters;
  const std::int64_t m = system.stateWords();
  auto kept = [&](std::int64_t dest) {
    const std::int64_t c = slotClass(k, m, q, dest);
    return c == 0 || owns(c - 1);
  };
  PointwiseProgram out;
  out.slots = system.update.slots;
  for (const auto& a : system.update.assignments) {
    if (a.form != pointwise::Form::Each) {
      if (kept(a.dest)) out.assignments.push_back(a);
      continue;
    }
    // Runs of consecutive kept instances become assignments of their own.
    for (std::int64_t i = 0; i < a.count;) {
      if (!kept(a.dest + i)) {
        ++i;
        continue;
      }
      std::int64_t end = i + 1;
      while (end < a.count && kept(a.dest + end)) ++end;
      out.assignments.push_back(pointwise::Assignment{a.dest + i, end - i, pointwise::Form::Each,
                                                      a.fold, shifted(a.code, i)});
      i = end;
    }
  }
  return out;
}

}  // namespace kfield
