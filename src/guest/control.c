/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp host side of the control disk: create with a job, read the
 * result back as untrusted input (doc/control-disk.md). */
#include "config.h"
#include "guest/control.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

int
vdc_control_disk_create(const char *path, uint64_t size, const struct vdc_ctl_job *job)
{
    struct vdc_ctl_error err = { { 0 } };
    int fd = -1;
    int r;

    if (size == 0)
        size = vdc_ctl_disk_size(job);
    if (size < VDC_CTL_DISK_MIN || size > VDC_CTL_DISK_MAX) {
        vdc_error("control disk %s: size %llu bytes: expected %u to %u", path,
                  (unsigned long long)size, VDC_CTL_DISK_MIN, VDC_CTL_DISK_MAX);
        return -1;
    }
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        vdc_error("control disk %s: create: %s", path, g_strerror(errno));
        return -1;
    }
    r = ftruncate(fd, (off_t)size);
    if (r < 0) {
        vdc_error("control disk %s: set size: %s", path, g_strerror(errno));
        goto fail;
    }
    if (vdc_ctl_disk_format(fd, size, job, &err) < 0) {
        vdc_error("control disk %s: %s", path, err.msg);
        goto fail;
    }
    r = fsync(fd);
    if (r < 0) {
        vdc_error("control disk %s: fsync: %s", path, g_strerror(errno));
        goto fail;
    }
    close(fd);
    return 0;
 fail:
    close(fd);
    unlink(path);
    return -1;
}

int
vdc_control_disk_read_result(const char *path, uint64_t nonce, struct vdc_ctl_result *res)
{
    struct vdc_ctl_error err = { { 0 } };
    struct stat st;
    int fd;
    int r;

    /* O_NONBLOCK: opening a FIFO must not wait for a writer (the check
     * below refuses it); it does not change reads of a regular file */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        vdc_error("control disk %s: open: %s", path, g_strerror(errno));
        return -1;
    }
    r = fstat(fd, &st);
    if (r < 0 || !S_ISREG(st.st_mode)) {
        vdc_error("control disk %s: expected a regular file", path);
        close(fd);
        return -1;
    }
    r = vdc_ctl_disk_read_result(fd, nonce, res, &err);
    close(fd);
    if (r < 0) {
        vdc_error("control disk %s: %s", path, err.msg);
        return -1;
    }
    if (res->lost_slots)
        vdc_error("control disk %s: target results not taken: %s", path, res->lost_slots);
    return 0;
}

uint64_t
vdc_control_nonce(void)
{
    uint64_t n;

    do
        n = ((uint64_t)g_random_int() << 32) | g_random_int();
    while (n == 0);
    return n;
}
