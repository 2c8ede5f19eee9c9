// The last step of tracing: operations nothing needs are dropped, and values are given
// scratch slots that rounds reuse.
#ifndef KFIELD_SRC_FIELD_COMPILETRACE_HPP
#define KFIELD_SRC_FIELD_COMPILETRACE_HPP

#include "kfield/field/TracedProgram.hpp"

namespace kfield::impl {

// On entry t.ops holds one operation per value id (an operand's slot is the id of the value
// it reads); on return the ops that run, their values mapped to t.slots scratch slots.
void compileTrace(TracedProgram& t);

}  // namespace kfield::impl

#endif
