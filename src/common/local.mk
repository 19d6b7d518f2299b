# Common helpers: error reporting, sizes, atomic writes.
noinst_LIBRARIES += src/libvdc-common.a
src_libvdc_common_a_SOURCES = \
	src/common/util.c src/common/util.h
