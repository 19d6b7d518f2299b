# SPDX-License-Identifier: GPL-2.0-or-later
# src/store: the result store (SQLite), its history and its exports.
src_libvdc_results_a_SOURCES += \
	src/store/store.h src/store/store_priv.h src/store/store.c src/store/store_add.c \
	src/store/facts.h src/store/facts.c \
	src/store/history.h src/store/history.c src/store/render_history.c \
	src/store/export.h src/store/export.c
