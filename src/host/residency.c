/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Page-cache residency of a file (residency.h). */
#include "config.h"
#include "host/residency.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

uint64_t
vdc_mincore_resident(const unsigned char *vec, size_t n)
{
    uint64_t r = 0;
    size_t i;

    for (i = 0; i < n; i++)
        r += vec[i] & 1u;
    return r;
}

int
vdc_residency_read(const char *path, vdc_residency *out)
{
    return vdc_residency_read_chunked(path, VDC_RESIDENCY_CHUNK, out);
}

int
vdc_residency_read_chunked(const char *path, size_t chunk, vdc_residency *out)
{
    g_autofree unsigned char *vec = NULL;
    long page = sysconf(_SC_PAGESIZE);
    uint64_t size, off;
    struct stat sb;
    int fd, rc = -1;

    memset(out, 0, sizeof(*out));
    if (page <= 0 || chunk == 0 || chunk % (size_t)page) {
        vdc_error("page-cache residency of %s: chunk of %zu bytes: expected a multiple of the "
                  "page size %ld", path, chunk, page);
        return -1;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        vdc_error("page-cache residency of %s: %s", path, g_strerror(errno));
        return -1;
    }
    if (fstat(fd, &sb) < 0) {
        vdc_error("page-cache residency of %s: %s", path, g_strerror(errno));
        goto out;
    }
    if (S_ISREG(sb.st_mode)) {
        size = (uint64_t)sb.st_size;
    } else if (S_ISBLK(sb.st_mode)) {
        if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
            vdc_error("page-cache residency of %s: BLKGETSIZE64: %s", path, g_strerror(errno));
            goto out;
        }
    } else {
        vdc_error("page-cache residency of %s: expected a regular file or a block device", path);
        goto out;
    }
    out->page_size = page;
    out->size_bytes = size;
    out->pages = (size + (uint64_t)page - 1) / (uint64_t)page;
    vec = g_malloc(chunk / (size_t)page);
    for (off = 0; off < size; off += chunk) {
        size_t len = (size_t)MIN((uint64_t)chunk, size - off);
        size_t n = (len + (size_t)page - 1) / (size_t)page;
        void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
        int r;

        if (map == MAP_FAILED) {
            vdc_error("page-cache residency of %s: mmap at %llu: %s", path,
                      (unsigned long long)off, g_strerror(errno));
            goto out;
        }
        r = mincore(map, len, vec);
        if (r < 0) {
            int e = errno;

            munmap(map, len);
            vdc_error("page-cache residency of %s: mincore at %llu: %s", path,
                      (unsigned long long)off, g_strerror(e));
            goto out;
        }
        munmap(map, len);
        out->resident_pages += vdc_mincore_resident(vec, n);
    }
    out->resident_bytes = MIN(out->resident_pages * (uint64_t)page, size);
    rc = 0;
out:
    close(fd);
    return rc;
}

int
vdc_drop_caches(void)
{
    int fd;

    sync();
    fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "3\n", 2) != 2) {
        vdc_error("/proc/sys/vm/drop_caches: %s", g_strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}
