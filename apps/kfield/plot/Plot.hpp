// Pictures of a kfield file: runs kfield-plot.py (matplotlib and h5py, from the distribution's
// Python) on it. The script is found at $KFIELD_PLOT_SCRIPT, else beside the sources this
// kfield was built from, else where it was installed; Python at $KFIELD_PYTHON, else
// /usr/bin/python3, else python3 on the PATH.
#ifndef KFIELD_APPS_PLOT_PLOT_HPP
#define KFIELD_APPS_PLOT_PLOT_HPP

#include <string>

namespace kfield::cli {

// Writes the pictures of `file` into `folder` (created); returns the script's exit code (0 on
// success, 2 for a file it cannot draw, having said why). Throws UserError when the script or
// Python cannot be run.
int plotFile(const std::string& file, const std::string& folder);

}  // namespace kfield::cli

#endif
