/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage: internal declarations shared by the kinds. */
#ifndef VDC_STORAGE_KINDS_H
#define VDC_STORAGE_KINDS_H

#include "storage/storage.h"

extern const struct vdc_storage_ops vdc_storage_image_ops;
extern const struct vdc_storage_ops vdc_storage_lvm_ops;
extern const struct vdc_storage_ops vdc_storage_block_ops;

/* LVM VG/LV name rules (lvm(8) "VALID NAMES"): 1-127 of [A-Za-z0-9+_.-],
 * not starting with '-', not "." or "..", no reserved prefix/suffix used
 * by LVM itself ("snapshot", "pvmove", "_mlog", "_rimage", ...).
 * @what is "VG" or "LV" for the message.  0, or -1 after vdc_error. */
int vdc_lvm_name_check(const char *what, const char *name);

#endif
