/* Placeholder until Storage, guest preparation, control disk (issue 4): src/storage, src/guest lands. */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_prepare(int argc, char **argv) { vdc_error("prepare: not implemented yet"); return VDC_EXIT_FAILURE; }
