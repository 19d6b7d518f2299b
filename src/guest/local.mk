# Storage, guest preparation, control disk (issue 4): src/storage, src/guest
# Host code includes the libc-only codec as "guest-agent/ctldisk.h".
AM_CPPFLAGS += -I$(top_srcdir)
AM_CFLAGS += $(BLKID_CFLAGS)
VDC_EXTERNAL_LIBS += $(BLKID_LIBS)
src_libvdc_controller_a_SOURCES += src/cli/cmd_prepare.c \
	src/storage/storage.h src/storage/storage_kinds.h src/storage/storage.c \
	src/storage/image.c src/storage/lvm.c src/storage/block.c \
	src/guest/prepare.h \
	src/guest/control.h src/guest/control.c
