// `myriad codegen MODEL --name NAME`: the model's CompiledModel as a C++ header
// (model/compiled_model_source.hpp), the step that makes the model-specialized CUDA kernels
// (kernels/model_kernels.cu) whose topology the compiler folds. Stdout, or --out written atomically.
#include <memory>
#include <stdexcept>

#include "commands.hpp"
#include "io/output_paths.hpp"
#include "model/compile.hpp"
#include "model/compiled_model_source.hpp"
#include "model/model_loader.hpp"
#include "text_output.hpp"

namespace myriad::cli {

int run_codegen(const CodegenOptions& o) {
  if (!is_cpp_identifier(o.name))
    throw std::invalid_argument("codegen: --name '" + o.name +
                                "' is not a C++ identifier (letters, digits and "
                                "underscores, not starting with a digit)");
  check_output_paths({{"--out", o.out}}, {{"the model file", o.model}}, false);
  const Model model = load_model_file(o.model);
  const std::unique_ptr<CompiledModel> compiled = compile(model);
  return print_or_write(o.out,
                        compiled_model_source(*compiled, o.name, o.origin.empty() ? o.model : o.origin));
}

}  // namespace myriad::cli
