#pragma once
// A study file's problem: the file, the JSON pointer of the value at fault and the reason, in the same shape
// as a model file's (api::ModelFileError), so a user reads both the same way: "study.json:
// /parameters/2/upper: ...".
#include <stdexcept>
#include <string>

namespace myriad::study {

class StudyFileError : public std::invalid_argument {
 public:
  StudyFileError(std::string file, std::string pointer, std::string reason)
      : std::invalid_argument(file + ": " + (pointer.empty() ? "/" : pointer) + ": " + reason),
        file_(std::move(file)),
        pointer_(std::move(pointer)),
        reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }  // "" is the document root
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, pointer_, reason_;
};

}  // namespace myriad::study
