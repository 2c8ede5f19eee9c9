// The host backends' gradient passes, compiled once (diff/impl/GradientPassRun.hpp).
#include "kfield/diff/Gradient.hpp"

namespace kfield::diff::impl {
#define KFIELD_IMPL_PASS(Space) template struct Pass<Space>;
KFIELD_FOR_EACH_LIBRARY_HOST_SPACE(KFIELD_IMPL_PASS)
}  // namespace kfield::diff::impl
