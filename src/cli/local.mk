# SPDX-License-Identifier: GPL-2.0-or-later
# src/cli: the subcommands; each parses its options and calls the libraries.
# Only the program uses them.
src_vmdiskcmp_SOURCES += src/cli/commands.h \
	src/cli/cmd_run.c src/cli/cmd_prepare.c src/cli/cmd_import.c src/cli/cmd_lab.c \
	src/cli/cmd_report.c src/cli/cmd_merge.c \
	src/cli/cmd_store.c src/cli/cmd_history.c
