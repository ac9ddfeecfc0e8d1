// libFuzzer target: arbitrary bytes as a study file. read_study_text either returns a study or throws a
// StudyFileError naming the file, the JSON pointer and the reason; any other exception, crash or sanitizer report
// is a finding. Expressions of `derived` are parsed and, when they parse, evaluated on a few values.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "study/study_error.hpp"
#include "study/study_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const myriad::study::StudySpec spec = myriad::study::read_study_text(text, "fuzz.json", "/tmp");
    for (const myriad::study::DerivedParameter& d : spec.derived) {
      const std::vector<double> values(d.expression.names.size(), 1.5);
      (void)myriad::study::evaluate(d.expression, values);
    }
  } catch (const myriad::study::StudyFileError&) {
    // Refused by name.
  }
  return 0;
}
