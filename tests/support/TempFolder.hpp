// A fresh folder for one test's files, removed with everything in it at the end: test binaries
// that ctest runs side by side never share a file.
#ifndef KFIELD_TEST_TEMPFOLDER_HPP
#define KFIELD_TEST_TEMPFOLDER_HPP

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kfield::test {

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = ::testing::TempDir() + "kfield_test_XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed: " + pattern);
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace kfield::test

#endif
