# SPDX-License-Identifier: GPL-2.0-or-later
# src/common: error model and reporting, escaping of outside text, sizes,
# atomic writes, child processes, option tables, where the helper binaries are.
noinst_LIBRARIES += src/libvdc-common.a
src_libvdc_common_a_SOURCES = \
	src/common/util.c src/common/util.h \
	src/common/escape.c src/common/escape.h \
	src/common/child.c src/common/child.h \
	src/common/opts.c src/common/opts.h \
	src/common/helper.c src/common/helper.h
