// The HDF5 library kfield's files are written with.
#ifndef KFIELD_IO_HDF5LIBRARY_HPP
#define KFIELD_IO_HDF5LIBRARY_HPP

#include <string>

namespace kfield {

// The version of the HDF5 library linked at run time ("1.10.8"), or "" when kfield is built
// without HDF5.
std::string hdf5LibraryVersion();

}  // namespace kfield

#endif
