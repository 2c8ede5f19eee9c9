// Text from a file or a command line as a message shows it.
#ifndef KFIELD_IMPL_PRINTABLE_HPP
#define KFIELD_IMPL_PRINTABLE_HPP

#include "kfield/Errors.hpp"

namespace kfield::impl {

using kfield::printable;

}  // namespace kfield::impl

#endif
