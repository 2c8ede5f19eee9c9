// Networks read from kfield's HDF5 files: the /network group of an export (CSR, lengths,
// positions), so a run on a network another run wrote, or one a user built in h5py, is
// `--network edges:FILE.h5`.
#ifndef KFIELD_IO_NETWORKFILE_HPP
#define KFIELD_IO_NETWORKFILE_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/io/FileError.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/net/NetworkPart.hpp"

#include <cstdint>
#include <string>

namespace kfield::io {

// Throws FileError naming the file and the problem (no /network, a dataset of another type or
// shape), or std::invalid_argument from Network::fromCsr naming the broken row.
Network readNetwork(const std::string& path);
// The device count of a file's network, and devices [owned.begin, owned.end) of it read without
// the whole: the owned rows, and the positions of the part's devices (a read per run of ids).
std::int64_t readNetworkDevices(const std::string& path);
NetworkPart readNetworkPart(const std::string& path, IndexRange owned);

// Network::fromSpec, and "edges:FILE" where FILE is an HDF5 file: readNetwork(FILE).
Network networkFromSpec(const std::string& spec);
// Whether the spec is "edges:FILE" with FILE an HDF5 file (read whole: no parts).
bool specNamesHdf5File(const std::string& spec);

}  // namespace kfield::io

#endif
