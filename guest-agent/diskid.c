/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a target disk in the guest by its serial (diskid.h). */
#include "config.h"
#include "guest-agent/diskid.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int
vdc_vpd_pg80_serial(const unsigned char *buf, size_t len, char *out, size_t outlen)
{
    size_t n, start = 4, end;

    if (len < 4 || buf[1] != 0x80)
        return -1;
    n = ((size_t)buf[2] << 8) | buf[3];
    end = 4 + n;
    if (end > len)
        return -1;
    while (start < end && (buf[start] == ' ' || buf[start] == '\0'))
        start++;
    while (end > start && (buf[end - 1] == ' ' || buf[end - 1] == '\0'))
        end--;
    if (end - start >= outlen)
        return -1;
    memcpy(out, buf + start, end - start);
    out[end - start] = '\0';
    return 0;
}

/* up to @max bytes of file @path into @buf; the count, or -1 */
static long
read_small(const char *path, unsigned char *buf, size_t max)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = read(fd, buf, max);
    close(fd);
    return n;
}

int
vdc_disk_serial(const char *sysblock, const char *name, char *out, size_t outlen)
{
    char path[512];
    unsigned char buf[256];
    long n;

    snprintf(path, sizeof(path), "%s/%s/serial", sysblock, name);
    n = read_small(path, buf, sizeof(buf) - 1);
    if (n > 0) {
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\0'))
            n--;
        if (n == 0 || (size_t)n >= outlen)
            return -1;
        memcpy(out, buf, (size_t)n);
        out[n] = '\0';
        return 0;
    }
    snprintf(path, sizeof(path), "%s/%s/device/vpd_pg80", sysblock, name);
    n = read_small(path, buf, sizeof(buf));
    if (n <= 0)
        return -1;
    return vdc_vpd_pg80_serial(buf, (size_t)n, out, outlen);
}

int
vdc_disk_by_serial(const char *sysblock, const char *serial, char *out, size_t outlen)
{
    DIR *d = opendir(sysblock);
    struct dirent *e;
    char s[128];
    int found = 0;

    if (!d)
        return 0;
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= outlen)
            continue;
        if (vdc_disk_serial(sysblock, e->d_name, s, sizeof(s)) == 0 && !strcmp(s, serial)) {
            snprintf(out, outlen, "%s", e->d_name);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

int
vdc_disk_node(const char *name, char *path, size_t len)
{
    char sys[300], num[32];
    unsigned maj, min;
    FILE *f;

    snprintf(path, len, "/dev/%s", name);
    if (access(path, F_OK) == 0)
        return 0;
    snprintf(sys, sizeof(sys), "/sys/block/%s/dev", name);
    f = fopen(sys, "re");
    if (!f)
        return -1;
    if (!fgets(num, sizeof(num), f) || sscanf(num, "%u:%u", &maj, &min) != 2) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return mknod(path, S_IFBLK | 0600, makedev(maj, min));
}

int
vdc_disk_find(const char *vdev, const char *control, char *path, size_t len)
{
    char serial[64], name[64], other[128];
    struct stat a, b;

    snprintf(serial, sizeof(serial), "%s%s", VDC_DISK_SERIAL_PREFIX, vdev);
    if (vdc_disk_by_serial("/sys/block", serial, name, sizeof(name)) == 1 &&
        vdc_disk_node(name, path, len) == 0)
        return 1;
    if (!strncmp(vdev, "xvd", 3))
        return vdc_disk_node(vdev, path, len) == 0;
    /* by its name only where the host marked no disk: a disk that carries a
     * serial is the one its serial names, and the control disk is never a
     * target */
    if (strchr(vdev, '/') || vdc_disk_serial("/sys/block", vdev, other, sizeof(other)) == 0 ||
        vdc_disk_node(vdev, path, len) != 0)
        return 0;
    if (control && stat(path, &a) == 0 && stat(control, &b) == 0 &&
        (S_ISBLK(a.st_mode) ? S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev
                            : a.st_dev == b.st_dev && a.st_ino == b.st_ino))
        return 0;
    return 1;
}
