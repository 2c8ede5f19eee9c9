// A result's bits (a field, a gradient) as a table of IEEE words, its SHA-256, and a file that
// holds it, so that runs on two spaces, thread counts or chunkings can be compared by one line
// of output (equal digests, equal bits) and, when they differ, element by element (kfield
// repro).
#ifndef KFIELD_APPS_DIGEST_HPP
#define KFIELD_APPS_DIGEST_HPP

#include <kfield/Plane.hpp>
#include <kfield/io/PartialFile.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kfield::cli {

struct ResultBits {
  std::int64_t rows = 0, columns = 0;
  std::string rowName = "row", columnName = "column";  // what a row and a column are
  std::vector<std::uint64_t> words;                    // row-major

  // A field: devices x samples, or (components x devices) x samples of a tuple-valued one.
  static ResultBits ofField(const HostPlane& field, std::int64_t devices);

  // SHA-256 of the words, 8 bytes each, least significant first, row-major.
  std::string digest() const;

  // The file kfield repro compares: a text header (kfield-bits-v1, rows, columns), a blank
  // line, then the words as the digest hashes them. save() writes them to the claimed partial
  // file and commits it: the file is replaced whole.
  void save(io::PartialFile& file) const;
  // Throws UserError naming the file and what is wrong with it.
  static ResultBits load(const std::string& path);
};

// What a command does with its result's bits: --bits FILE saves them (kfield repro reads
// them); --flip-bit ROW:COLUMN flips the lowest bit of one word first, which kfield repro's
// tests use to plant a difference (hidden from --help).
struct BitsOutput {
  std::string path;
  std::string flip;
  std::shared_ptr<io::PartialFile> file;  // --bits PATH, claimed before the work
};
void addBitsOptions(CLI::App& command, BitsOutput& bits);
// Claims --bits PATH (io::PartialFile: a regular file or none, one writer) before the work, so
// that a refusal comes before the run and nothing of another writer's is touched.
void claimBitsFile(BitsOutput& bits);

// Prints "<what> sha256: <digest>" (of the bits after any flip) and saves them where asked.
void reportBits(ResultBits bits, const std::string& what, const BitsOutput& output);

}  // namespace kfield::cli

#endif
