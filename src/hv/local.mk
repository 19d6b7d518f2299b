# SPDX-License-Identifier: GPL-2.0-or-later
# src/hv: the hypervisor drivers (libxl, libvirt, mock) and their pure
# translators (xl disk specs, xl.cfg, domain XML; golden tests).
src_libvdc_controller_a_SOURCES += \
	src/hv/translate.c src/hv/translate.h src/hv/translate_libxl.c \
	src/hv/backend_json.c src/hv/backend_json.h \
	src/hv/hv.h src/hv/hv.c src/hv/hv_mock.c src/hv/hv_libvirt.c src/hv/hv_libxl.c
