#pragma once
// Reading a Magic Formula `.tir` property file (the TNO/Adams format: `[SECTION]` headers, `KEY = value` lines,
// comments after `$` or `!`, strings in single quotes) into the coefficient array of tire/tir_coefficients.hpp.
// Every coefficient the formulas use must be present (a missing one is refused by name, not taken as zero); units
// must be SI ([UNITS] LENGTH 'meter', FORCE 'newton', ANGLE 'radian', when given). Host only.
#include <array>
#include <stdexcept>
#include <string>

#include "tire/fiala.hpp"
#include "tire/tir_coefficients.hpp"

namespace myriad {

// A refused `.tir` file: what() is "FILE: line N: reason" or "FILE: reason" (line 0).
class TirFileError : public std::runtime_error {
 public:
  TirFileError(const std::string& file, int line, const std::string& reason);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  int line_;
  std::string reason_;
};

using TirCoefficients = std::array<double, kTirCount>;

// The coefficients of the file at `path`. Throws TirFileError (cannot read, not SI, a needed value that is not a
// finite number, a key given twice, a missing coefficient, FNOMIN or UNLOADED_RADIUS not positive).
TirCoefficients read_tir_file(const std::string& path);

// The same from the file's text (`name` for messages).
TirCoefficients parse_tir(const std::string& text, const std::string& name);

// [MODEL] PROPERTY_FILE_FORMAT, upper case without quotes ("PAC2002", "FIALA", ...); "" when not given.
std::string tir_property_format(const std::string& text);

// A FIALA `.tir` (Adams' format): UNLOADED_RADIUS, WIDTH, CSLIP, CALPHA, UMIN, UMAX required (positive; UMIN <=
// UMAX), other keys ignored; refusals as read_tir_file's.
FialaParameters parse_fiala_tir(const std::string& text, const std::string& name);

// The whole text of a `.tir` file (at most 8 MiB). Throws TirFileError.
std::string read_tir_text(const std::string& path);

}  // namespace myriad
