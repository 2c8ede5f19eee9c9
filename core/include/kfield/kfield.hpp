// Everything a kfield user needs, in one include.
#ifndef KFIELD_KFIELD_HPP
#define KFIELD_KFIELD_HPP

#include "kfield/Config.hpp"
#include "kfield/backends/ExecutionSpaces.hpp"
#include "kfield/backends/SpaceInfo.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/io/Hdf5Library.hpp"
#include "kfield/rt/BuildInfo.hpp"
#include "kfield/rt/Runtime.hpp"
#include "kfield/rt/Topology.hpp"
#include "kfield/sum/Canonical.hpp"
#include "kfield/sum/Chunking.hpp"
#include "kfield/sum/OrderedSum.hpp"
#include "kfield/sum/Partials.hpp"

#endif
