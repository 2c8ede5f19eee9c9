// Everything a kfield user needs, in one include.
#ifndef KFIELD_KFIELD_HPP
#define KFIELD_KFIELD_HPP

#include "kfield/Config.hpp"
#include "kfield/backends/ExecutionSpaces.hpp"
#include "kfield/backends/SpaceInfo.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/field/Field.hpp"
#include "kfield/field/Library.hpp"
#include "kfield/field/Network.hpp"
#include "kfield/field/Program.hpp"
#include "kfield/field/Simulation.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/graph/Description.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/Learner.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/learn/Pointwise.hpp"
#include "kfield/learn/Rules.hpp"
#include "kfield/io/Hdf5Library.hpp"
#include "kfield/rt/BuildInfo.hpp"
#include "kfield/rt/Runtime.hpp"
#include "kfield/rt/Topology.hpp"
#include "kfield/sum/Canonical.hpp"
#include "kfield/sum/Chunking.hpp"
#include "kfield/sum/OrderedSum.hpp"
#include "kfield/sum/Partials.hpp"

#endif
