// The public size helpers (kfield/Sizes.hpp) under the names the library's internals use.
#ifndef KFIELD_IMPL_SIZES_HPP
#define KFIELD_IMPL_SIZES_HPP

#include "kfield/Sizes.hpp"

namespace kfield::impl {

using sizes::bytesText;
using sizes::kSaturated;
using sizes::product;
using sizes::requireMemory;
using sizes::total;

}  // namespace kfield::impl

#endif
