#include "kfield/learn/LearnerState.hpp"

namespace kfield {

std::string learnerNumericalContract() {
  return "kfield-learner-v1; combine: canonical pairwise tree over the global sample sequence "
         "in owner order, padded right with absent entries; mean: numerator / mass in binary64; "
         "contraction: off (no fused multiply-add); pointwise min/max: left operand unless the "
         "right is strictly smaller/larger";
}

}  // namespace kfield
