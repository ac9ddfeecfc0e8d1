#pragma once
// Templates (docs/model-format.md, "Subsystems"): a `subsystems` entry names a template and gives its hardpoints,
// parts and force elements; the loader expands it into ordinary bodies, joints, loops, forces and outputs before
// reading the file, so every backend, integrator and check sees a plain model. `myriad expand` writes the result.
#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"

namespace myriad {

// The document with every `subsystems` entry expanded and the key removed; the generated entries follow the file's
// own in each section. `subsystems` receives one record per corner (two for "side": "both"). A document without
// `subsystems` comes back unchanged. Throws ModelError at the subsystem's pointer for an unknown template, a
// missing or coincident hardpoint, an unknown chassis, a part name already taken, or an unknown key.
// O(size of the document).
Json expand_subsystems(const JsonNode& root, std::vector<Subsystem>& subsystems);

// The known template names, for messages and `myriad info`.
const std::vector<std::string>& template_names();

}  // namespace myriad
