// Changing kfield's files with HDF5's own C API (never kfield's writer), for the tests of
// what a bad file is refused with, and the start of every such refusal.
#ifndef KFIELD_TEST_FILEEDITS_HPP
#define KFIELD_TEST_FILEEDITS_HPP

#include <gtest/gtest.h>
#include <hdf5.h>

#include <string>

namespace kfield::test {

// Opens the file for writing with HDF5 and lets `edit` change it.
template <class Edit>
void editFile(const std::string& path, Edit edit) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0) << path;
  edit(f);
  H5Fclose(f);
}

// What io's FileError says: "kfield::io: FILE: what".
inline std::string refusal(const std::string& path, const std::string& what) {
  return "kfield::io: " + path + ": " + what;
}

}  // namespace kfield::test

#endif
