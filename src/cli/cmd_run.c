/* Placeholder until the controller lands (issue 4). */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_run(int argc, char **argv)     { vdc_error("run: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_cleanup(int argc, char **argv) { vdc_error("cleanup: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_prepare(int argc, char **argv) { vdc_error("prepare: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_lab(int argc, char **argv)     { vdc_error("lab: not implemented yet"); return VDC_EXIT_FAILURE; }
