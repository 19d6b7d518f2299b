# Storage, guest preparation, control disk (issue 4): src/storage, src/guest
# Host code includes the libc-only codec as "guest-agent/ctldisk.h".
AM_CPPFLAGS += -I$(top_srcdir)
AM_CFLAGS += $(BLKID_CFLAGS)
VDC_EXTERNAL_LIBS += $(BLKID_LIBS)
# bd_extra_arg_new() (lvcreate --addtag/--stripes) lives in libbd_utils
if WITH_BLOCKDEV
VDC_EXTERNAL_LIBS += -lbd_utils
endif
src_libvdc_controller_a_SOURCES += src/cli/cmd_prepare.c \
	src/storage/storage.h src/storage/storage_kinds.h src/storage/storage.c \
	src/storage/image.c src/storage/lvm.c src/storage/block.c \
	src/guest/prepare.h src/guest/prepare.c \
	src/guest/control.h src/guest/control.c

# The default guest template (doc/guest-template.md): `make guest-template`
# builds it into $(builddir)/guest-template (cached; a rebuild with the same
# kernel, busybox-static and e2fsprogs does nothing).
GUEST_TEMPLATE_DIR = $(abs_top_builddir)/guest-template
guest-template:
	sh $(abs_top_srcdir)/templates/guest/build-template.sh $(GUEST_TEMPLATE_DIR)
.PHONY: guest-template
clean-local-guest-template:
	rm -rf $(GUEST_TEMPLATE_DIR)
