# SPDX-License-Identifier: GPL-2.0-or-later
# src/import: importers of agent JSON, bonnie++ CSV, bonnie/bonnie++ tables and
# dd transcripts, fio JSON.
src_libvdc_results_a_SOURCES += \
	src/import/import.h src/import/import_priv.h \
	src/import/import.c src/import/bonnie_csv.c src/import/text.c src/import/bonnie_table.c \
	src/import/bonnie_claim.c \
	src/import/dd.c src/import/dd_command.c src/import/dd_output.c src/import/describe.c \
	src/import/fio_json.c
