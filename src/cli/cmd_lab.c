/* Placeholder until Emulated Xen lab (issue 5): src/lab, templates/lab lands. */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_lab(int argc, char **argv) { vdc_error("lab: not implemented yet"); return VDC_EXIT_FAILURE; }
