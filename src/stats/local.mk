# SPDX-License-Identifier: GPL-2.0-or-later
# src/stats: the statistics (summaries, outliers, bootstrap, Welch, Fieller;
# paired comparisons, Holm, effect classes).
src_libvdc_results_a_SOURCES += src/stats/stats.c src/stats/stats.h \
	src/stats/paired.c src/stats/paired.h \
	src/stats/cld.c src/stats/cld.h \
	src/stats/pooled.c src/stats/pooled.h
