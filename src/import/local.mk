# Importers and result model (issue 3): src/model, src/import
src_libvdc_results_a_SOURCES += src/cli/cmd_import.c
