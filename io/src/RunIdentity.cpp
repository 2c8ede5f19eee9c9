#include "kfield/io/Restart.hpp"

#include "kfield/diff/FieldContribution.hpp"
#include "kfield/learn/Identity.hpp"

namespace kfield::io {

std::string runIdentity(const TracedProgram& program, const Network& network) {
  return describe(sha256(diff::fieldContributionIdentity(program, network)));
}

}  // namespace kfield::io
