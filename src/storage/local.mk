# SPDX-License-Identifier: GPL-2.0-or-later
# src/storage: the storage kinds (image, LVM LV, block device) as ops tables.
# block.c reads signatures with libblkid; lvm.c drives libblockdev, whose
# bd_extra_arg_new() (lvcreate --addtag/--stripes) lives in libbd_utils.
AM_CFLAGS += $(BLKID_CFLAGS)
VDC_EXTERNAL_LIBS += $(BLKID_LIBS)
if WITH_BLOCKDEV
VDC_EXTERNAL_LIBS += -lbd_utils
endif
src_libvdc_controller_a_SOURCES += \
	src/storage/storage.h src/storage/storage_kinds.h src/storage/storage.c \
	src/storage/image.c src/storage/qcow2.c src/storage/lvm.c src/storage/block.c
