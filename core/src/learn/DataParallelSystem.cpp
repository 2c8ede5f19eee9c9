#include "kfield/learn/DataParallelSystem.hpp"

#include "kfield/impl/Errors.hpp"

#include <stdexcept>

namespace kfield {

std::int64_t DataParallelSystem::ownerSize(std::size_t owner) const {
  return heldInPart() ? ownerSizes[owner] : static_cast<std::int64_t>(owners[owner].size());
}

std::int64_t DataParallelSystem::totalMass() const {
  std::int64_t mass = 0;
  for (std::size_t o = 0; o < owners.size(); ++o) mass += ownerSize(o);
  return mass;
}

std::string describe(Admission condition) {
  switch (condition) {
    case Admission::Admitted: return "admitted";
    case Admission::NoParameters: return "parameter count is zero";
    case Admission::ContributionSlots: return "contribution slot count is not 2k + s";
    case Admission::UpdateSlots: return "update slot count is not 2k + m + 1";
    case Admission::InitialParameters: return "initial parameters are not k words";
    case Admission::ContributionWritesOutside: return "contribution writes outside its output";
    case Admission::UpdateWritesOutside: return "update writes outside parameters and state";
    case Admission::FewerThanTwoOwners: return "fewer than two owners";
    case Admission::NoSamples: return "total mass is zero";
    case Admission::MassTooLarge: return "total mass is not below 2^53";
    case Admission::SampleWidth: return "a sample's width is not s";
    case Admission::MalformedProgram: return "a program is malformed";
    case Admission::OwnerSizes: return "owner sizes do not match the owners";
  }
  return "unknown";
}

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// The first assignment writing outside [low, high), or -1.
std::int64_t writesOutside(const PointwiseProgram& p, std::int64_t low, std::int64_t high) {
  for (std::size_t j = 0; j < p.assignments.size(); ++j) {
    const auto& a = p.assignments[j];
    if (a.dest < low || pointwise::writtenEnd(a) > high) return static_cast<std::int64_t>(j);
  }
  return -1;
}

}  // namespace

AdmissionResult admitted(const DataParallelSystem& sys) {
  const std::int64_t k = sys.parameters;
  const std::int64_t s = sys.sampleWidth;
  const std::int64_t m = sys.stateWords();
  auto fail = [](Admission c, std::string detail) { return AdmissionResult{c, std::move(detail)}; };
  if (k <= 0) return fail(Admission::NoParameters, "k = " + str(k));
  if (!sys.contributionIdentity.empty()) {
    if (s < 0 || sys.contribution.slots != 0 || !sys.contribution.assignments.empty()) {
      return fail(Admission::ContributionSlots,
                  "the contribution is given by its identity, yet has a pointwise program of " +
                      str(sys.contribution.slots) + " slots");
    }
  } else if (s < 0 || sys.contribution.slots != 2 * k + s) {
    return fail(Admission::ContributionSlots, "contribution has " + str(sys.contribution.slots) +
                                                  " slots, 2k + s = " + str(2 * k + s));
  }
  if (sys.update.slots != 2 * k + m + 1) {
    return fail(Admission::UpdateSlots, "update has " + str(sys.update.slots) +
                                            " slots, 2k + m + 1 = " + str(2 * k + m + 1));
  }
  if (static_cast<std::int64_t>(sys.initialParameters.size()) != k) {
    return fail(
        Admission::InitialParameters,
        str(static_cast<std::int64_t>(sys.initialParameters.size())) + " words, k = " + str(k));
  }
  if (auto j = writesOutside(sys.contribution, k + s, 2 * k + s); j >= 0) {
    return fail(Admission::ContributionWritesOutside,
                "assignment " + str(j) + " writes slot " +
                    str(sys.contribution.assignments[static_cast<std::size_t>(j)].dest) +
                    ", outputs are [" + str(k + s) + ", " + str(2 * k + s) + ")");
  }
  if (auto j = writesOutside(sys.update, 0, k + m); j >= 0) {
    return fail(Admission::UpdateWritesOutside,
                "assignment " + str(j) + " writes slot " +
                    str(sys.update.assignments[static_cast<std::size_t>(j)].dest) +
                    ", outputs are [0, " + str(k + m) + ")");
  }
  if (sys.owners.size() < 2) {
    return fail(Admission::FewerThanTwoOwners,
                str(static_cast<std::int64_t>(sys.owners.size())) + " owner(s)");
  }
  if (sys.heldInPart()) {
    if (sys.ownerSizes.size() != sys.owners.size()) {
      return fail(Admission::OwnerSizes,
                  str(static_cast<std::int64_t>(sys.ownerSizes.size())) + " sizes for " +
                      str(static_cast<std::int64_t>(sys.owners.size())) + " owners");
    }
    std::int64_t sum = 0;  // each size < 2^53: the sum is checked before it could overflow
    for (std::size_t o = 0; o < sys.owners.size(); ++o) {
      const auto held = static_cast<std::int64_t>(sys.owners[o].size());
      if (sys.ownerSizes[o] < 0 || sys.ownerSizes[o] >= (std::int64_t(1) << 53) ||
          (held != 0 && held != sys.ownerSizes[o])) {
        return fail(Admission::OwnerSizes, "owner " + str(static_cast<std::int64_t>(o)) +
                                               " has size " + str(sys.ownerSizes[o]) +
                                               " and holds " + str(held) + " samples");
      }
      sum += sys.ownerSizes[o];
      if (sum >= (std::int64_t(1) << 53)) {
        return fail(Admission::MassTooLarge, "more than 2^53 samples in the owner sizes");
      }
    }
  }
  const std::int64_t mass = sys.totalMass();
  if (mass == 0) return fail(Admission::NoSamples, "no owner holds a sample");
  if (mass >= (std::int64_t(1) << 53)) return fail(Admission::MassTooLarge, str(mass) + " samples");
  for (std::size_t o = 0; o < sys.owners.size(); ++o) {
    for (std::size_t j = 0; j < sys.owners[o].size(); ++j) {
      if (static_cast<std::int64_t>(sys.owners[o][j].size()) != s) {
        return fail(Admission::SampleWidth,
                    "owner " + str(static_cast<std::int64_t>(o)) + " sample " +
                        str(static_cast<std::int64_t>(j)) + " has " +
                        str(static_cast<std::int64_t>(sys.owners[o][j].size())) +
                        " words, s = " + str(s));
      }
    }
  }
  try {
    pointwise::validate(sys.contribution, "contribution");
    pointwise::validate(sys.update, "update");
  } catch (const std::invalid_argument& e) {
    return fail(Admission::MalformedProgram, e.what());
  }
  return {};
}

void requireAdmitted(const DataParallelSystem& system, const std::string& who) {
  const AdmissionResult r = admitted(system);
  if (!r) impl::invalidArgument(who, "not admitted: " + describe(r.condition) + ": " + r.detail);
}

}  // namespace kfield
