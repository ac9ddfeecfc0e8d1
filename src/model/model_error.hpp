#pragma once
// The one exception type of model loading and validation: its message always names the file, the JSON pointer
// of the offending value and the reason ("models/a.json: /bodies/2/mass: mass must be positive, got -1").
#include <stdexcept>
#include <string>

namespace myriad {

class ModelError : public std::runtime_error {
 public:
  ModelError(const std::string& file, const std::string& pointer, const std::string& reason)
      : std::runtime_error(file + ": " + pointer + ": " + reason), file_(file), pointer_(pointer), reason_(reason) {}
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, pointer_, reason_;
};

}  // namespace myriad
