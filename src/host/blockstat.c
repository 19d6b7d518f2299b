/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Block-layer and blkback I/O counters (blockstat.h). */
#include "config.h"
#include "host/blockstat.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "host/text.h"

int
vdc_disk_stat_parse(const char *text, const char *source, vdc_disk_stat *out)
{
    uint64_t *f[] = { &out->read_ios, &out->read_merges, &out->read_sectors, &out->read_ticks_ms,
                      &out->write_ios, &out->write_merges, &out->write_sectors,
                      &out->write_ticks_ms, &out->in_flight, &out->io_ticks_ms,
                      &out->time_in_queue_ms };
    const char *p = text ? text : "";
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < G_N_ELEMENTS(f); i++) {
        p = vdc_skip_blanks(p);
        if (vdc_parse_u64_word(&p, f[i]) < 0 || (*p && *p != ' ' && *p != '\t' && *p != '\n')) {
            vdc_error("%s: field %zu: expected 11 or more decimal counters, got '%.*s'", source,
                      i + 1, vdc_line_len(text, 60), text ? text : "");
            return -1;
        }
    }
    return 0;
}

int
vdc_disk_stat_read(const char *dev, vdc_disk_stat *out)
{
    const char *n = g_str_has_prefix(dev, "/dev/") ? dev + 5 : dev;
    g_autofree char *path = g_strdup_printf("/sys/class/block/%s/stat", n);
    g_autofree char *text = NULL;

    if (!*n || strchr(n, '/')) {
        vdc_error("block device '%s': expected a name such as vda or /dev/vda", dev);
        return -1;
    }
    text = vdc_read_proc_file(path, NULL);
    return text ? vdc_disk_stat_parse(text, path, out) : -1;
}

const char *const vdc_vbd_stat_files[7] = {
    "rd_req", "wr_req", "f_req", "ds_req", "oo_req", "rd_sect", "wr_sect",
};

int
vdc_vbd_stat_parse(const char *const texts[7], const char *dir, vdc_vbd_stat *out)
{
    uint64_t *f[] = { &out->rd_req, &out->wr_req, &out->f_req, &out->ds_req, &out->oo_req,
                      &out->rd_sect, &out->wr_sect };
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < G_N_ELEMENTS(f); i++)
        if (vdc_parse_u64_text(texts[i], f[i]) < 0) {
            vdc_error("%s/statistics/%s: expected a decimal counter, got '%.*s'", dir,
                      vdc_vbd_stat_files[i], vdc_line_len(texts[i], 20), texts[i] ? texts[i] : "");
            return -1;
        }
    return 0;
}

int
vdc_vbd_stat_read(unsigned domid, unsigned devid, vdc_vbd_stat *out)
{
    g_autofree char *dir = g_strdup_printf("/sys/bus/xen-backend/devices/vbd-%u-%u", domid, devid);
    char *texts[7] = { 0 };
    int rc = 0, gone = 0;
    size_t i;

    for (i = 0; i < 7 && rc == 0; i++) {
        g_autofree char *path = g_strdup_printf("%s/statistics/%s", dir, vdc_vbd_stat_files[i]);

        texts[i] = vdc_read_proc_file(path, &gone);
        if (!texts[i])
            rc = gone ? 1 : -1;
    }
    if (rc == 0)
        rc = vdc_vbd_stat_parse((const char *const *)texts, dir, out);
    for (i = 0; i < 7; i++)
        g_free(texts[i]);
    return rc;
}
