/* Placeholder until Importers and result model (issue 3): src/model, src/import lands. */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_import(int argc, char **argv) { vdc_error("import: not implemented yet"); return VDC_EXIT_FAILURE; }
