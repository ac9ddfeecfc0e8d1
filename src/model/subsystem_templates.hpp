#pragma once
// The templates a `subsystems` entry may name, one expansion function each (model/double_wishbone.cpp, ...).
// Internal to the loader; model/subsystems.hpp dispatches to them.
#include "model/model_reading.hpp"
#include "model/template_parts.hpp"

namespace myriad {

TemplateOutput expand_double_wishbone(const TemplateInput& in);
TemplateOutput expand_macpherson(const TemplateInput& in);
TemplateOutput expand_five_link(const TemplateInput& in);
TemplateOutput expand_anti_roll_bar(const TemplateInput& in);

}  // namespace myriad
