/* Host facts recorded in result.json (experiment.host) and the defaults
 * that depend on the host (RAM, Xen dom0 or not); and the real run
 * environment (run.h vdc_run_env_default). */
#include "config.h"
#include "run/run.h"

#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "guest/control.h"

static char *
cpuinfo_field(const char *field)
{
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    size_t i;

    if (!g_file_get_contents("/proc/cpuinfo", &data, NULL, NULL))
        return NULL;
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++) {
        char *colon = strchr(lines[i], ':');
        if (colon && g_str_has_prefix(lines[i], field)) {
            char *v = g_strstrip(g_strdup(colon + 1));
            return v;
        }
    }
    return NULL;
}

unsigned
vdc_host_ram_mib(void)
{
    g_autofree char *data = NULL;
    char *p;

    if (!g_file_get_contents("/proc/meminfo", &data, NULL, NULL))
        return 0;
    p = strstr(data, "MemTotal:");
    return p ? (unsigned)(g_ascii_strtoull(p + 9, NULL, 10) / 1024) : 0;
}

int
vdc_host_is_xen_dom0(void)
{
    g_autofree char *caps = NULL;

    return g_file_get_contents("/proc/xen/capabilities", &caps, NULL, NULL) &&
           strstr(caps, "control_d") != NULL;
}

void
vdc_host_facts(vdc_host_info *info)
{
    struct utsname u;
    g_autofree char *model = cpuinfo_field("model name");
    g_autofree char *gov = NULL;

    vdc_set_str(&info->hostname, g_get_host_name());
    if (uname(&u) == 0)
        vdc_set_str(&info->kernel, u.release);
    vdc_set_str(&info->cpu_model, model);
    info->cpu_count = sysconf(_SC_NPROCESSORS_ONLN);
    info->ram_mib = vdc_host_ram_mib();
    if (g_file_get_contents("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", &gov, NULL, NULL))
        vdc_set_str(&info->cpu_governor, g_strstrip(gov));
}

/* ---- the real environment --------------------------------------------------- */

static int
storage_destroy_journaled(const char *kind, const char *path, const char *vg, const char *lv)
{
    struct vdc_storage st;
    enum vdc_storage_kind k;
    int rc;

    if (vdc_storage_kind_from_name(kind, &k) < 0) {
        vdc_error("journal: storage kind '%s': expected image or lvm", kind);
        return -1;
    }
    vdc_storage_init(&st);
    rc = vdc_storage_from_journal(k, path, vg, lv, &st);
    if (rc == 0)
        rc = vdc_storage_destroy(&st);
    vdc_storage_dispose(&st);
    return rc;
}

void
vdc_run_env_default(vdc_run_env *env)
{
    memset(env, 0, sizeof(*env));
    env->storage_create = vdc_storage_create;
    env->storage_destroy_journaled = storage_destroy_journaled;
    env->storage_describe = vdc_storage_describe;
    env->prepare = vdc_prepare;
    env->prepared_load = vdc_prepared_load;
    env->collect_logs = vdc_collect_logs;
    env->ctl_create = vdc_control_disk_create;
    env->ctl_read = vdc_control_disk_read_result;
    env->nonce = vdc_control_nonce;
    env->dom0_step = vdc_dom0_step;
    env->loop_attach = vdc_loop_attach;
    env->loop_detach = vdc_loop_detach;
    env->drop_caches = vdc_drop_caches;
}
