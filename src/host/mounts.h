/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mounts as dom0 sees them: whether a directory is a mount point, and of
 * what (/proc/self/mountinfo, proc(5): field 5 the mount point, the field
 * after "-" the filesystem type, the one after it the source). */
#ifndef VDC_HOST_MOUNTS_H
#define VDC_HOST_MOUNTS_H

/* Pure: whether /proc/self/mountinfo text @mountinfo has a mount on @real
 * (a path with symlinks resolved): 1, or 0 when not.  With @source (not
 * NULL, not empty) the mount's source must be @source: else -1 after
 * vdc_error naming both ("mounted from X, not Y as journaled"). */
int vdc_mountinfo_has(const char *mountinfo, const char *real, const char *source);

/* Reader: vdc_mountinfo_has on this process's mountinfo for @dir (resolved
 * with realpath; a @dir that is gone is not mounted: 0).  1, 0, or -1
 * after vdc_error (mountinfo unreadable, another source). */
int vdc_is_mounted(const char *dir, const char *source);

#endif
