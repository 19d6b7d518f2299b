/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mock hypervisor driver: no hypervisor, every call recorded, failures
 * injected through vdc_hv_mock() (tests/unit/test_flow*.c). */
#include "config.h"
#include "hv/hv.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"

struct vdc_hv {
    int unused;
};

static vdc_hv_mock_state mock_state;
static GHashTable *mock_running;   /* name -> its UUID */
static GHashTable *mock_runs;      /* UUID -> the run id it was created with */

vdc_hv_mock_state *
vdc_hv_mock(void)
{
    if (!mock_state.calls)
        mock_state.calls = g_ptr_array_new_with_free_func(g_free);
    if (!mock_running)
        mock_running = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    if (!mock_runs)
        mock_runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    return &mock_state;
}

void
vdc_hv_mock_reset(void)
{
    if (mock_state.calls)
        g_ptr_array_unref(mock_state.calls);
    if (mock_running)
        g_hash_table_destroy(mock_running);
    mock_running = NULL;
    if (mock_runs)
        g_hash_table_destroy(mock_runs);
    mock_runs = NULL;
    memset(&mock_state, 0, sizeof(mock_state));
    vdc_hv_mock();
}

static void
logcall(const char *what, const char *name)
{
    g_ptr_array_add(vdc_hv_mock()->calls, g_strdup_printf("%s %s", what, name ? name : ""));
}

static vdc_hv *
mock_open(const char *uri)
{
    vdc_hv_mock();
    logcall("open", uri);
    if (mock_state.fail_open) {
        vdc_error("mock: cannot connect (injected failure)");
        return NULL;
    }
    return g_new0(vdc_hv, 1);
}

static void
mock_close(vdc_hv *hv)
{
    g_free(hv);
}

static void
mock_versions(vdc_hv *hv, JsonObject *out)
{
    json_object_set_string_member(out, "mock_version", "1");
}

static int
mock_create(vdc_hv *hv, const vdc_hv_domain *dom, char **repeats)
{
    *repeats = NULL;
    logcall("create", dom->name);
    mock_state.n_create++;
    if (mock_state.fail_create_repeats) {
        vdc_error("domain %s: cannot create: %s", dom->name, mock_state.fail_create_repeats);
        *repeats = g_strdup(mock_state.fail_create_repeats);
        return -1;
    }
    if (mock_state.fail_create) {
        vdc_error("domain %s: mock create failed (injected failure)", dom->name);
        return -1;
    }
    if (g_hash_table_contains(mock_running, dom->name)) {
        vdc_error("domain %s: cannot create: a domain of that name already exists", dom->name);
        return -1;
    }
    if (mock_state.on_create && mock_state.on_create(dom, mock_state.opaque) < 0) {
        vdc_error("domain %s: mock create hook failed", dom->name);
        return -1;
    }
    {
        char *uuid = dom->uuid ? g_strdup(dom->uuid) : g_uuid_string_random();

        if (dom->run_id)
            g_hash_table_replace(mock_runs, g_ascii_strdown(uuid, -1), g_strdup(dom->run_id));
        g_hash_table_replace(mock_running, g_strdup(dom->name), uuid);
    }
    mock_state.n_running++;
    mock_state.paused = dom->start_paused;
    if (dom->start_paused)
        logcall("paused", dom->name);
    return 0;
}

static int
mock_resume(vdc_hv *hv, const char *name)
{
    logcall("resume", name);
    if (mock_state.fail_resume) {
        vdc_error("domain %s: mock resume failed (injected failure)", name);
        return -1;
    }
    mock_state.paused = 0;
    return 0;
}

static int
mock_disk_facts(vdc_hv *hv, const char *name, vdc_hv_disk_facts *out)
{
    logcall("disk_facts", name);
    if (mock_state.on_disk_facts)
        return mock_state.on_disk_facts(name, out, mock_state.opaque);
    return 0;
}

void
vdc_hv_mock_add_foreign_run(const char *name, const char *uuid, const char *run_id)
{
    char *key = g_ascii_strdown(uuid, -1);

    vdc_hv_mock();
    g_hash_table_replace(mock_running, g_strdup(name), g_strdup(uuid));
    if (run_id) {
        g_hash_table_replace(mock_runs, key, g_strdup(run_id));
    } else {
        g_hash_table_remove(mock_runs, key);
        g_free(key);
    }
}

void
vdc_hv_mock_add_foreign(const char *name, const char *uuid)
{
    vdc_hv_mock_add_foreign_run(name, uuid, NULL);
}

static int
mock_run_of(vdc_hv *hv, const char *uuid, char **run_id)
{
    g_autofree char *key = g_ascii_strdown(uuid, -1);
    GHashTableIter it;
    gpointer name, have;

    vdc_hv_mock();
    *run_id = NULL;
    g_hash_table_iter_init(&it, mock_running);
    while (g_hash_table_iter_next(&it, &name, &have))
        if (!g_ascii_strcasecmp(have, uuid)) {
            *run_id = g_strdup(g_hash_table_lookup(mock_runs, key));
            return 1;
        }
    return 0;
}

static int
mock_backends(vdc_hv *hv, const char *name, JsonObject *out)
{
    logcall("backends", name);
    if (mock_state.fail_backends) {
        vdc_error("domain %s: mock backends failed (injected failure)", name);
        return -1;
    }
    return mock_state.on_backends ? mock_state.on_backends(name, out, mock_state.opaque) : 0;
}

static vdc_hv_wait_result
mock_wait(vdc_hv *hv, const char *name, unsigned timeout_s, volatile sig_atomic_t *stop)
{
    logcall("wait", name);
    if (mock_state.on_wait)
        mock_state.on_wait(name, mock_state.opaque);
    if (stop && *stop)
        return VDC_HV_WAIT_INTERRUPTED;
    if (mock_state.wait_result == VDC_HV_WAIT_SHUTOFF &&
        g_hash_table_remove(mock_running, name))
        mock_state.n_running--;
    return mock_state.wait_result;
}

static int
mock_destroy(vdc_hv *hv, const char *name, const char *uuid)
{
    const char *have;

    logcall("destroy", name);
    mock_state.n_destroy++;
    if (mock_state.fail_destroy) {
        vdc_error("domain %s: mock destroy failed (injected failure)", name);
        return -1;
    }
    /* by UUID: the mock keeps one domain per name, so only that one can match */
    have = mock_running ? g_hash_table_lookup(mock_running, name) : NULL;
    if (have && !g_ascii_strcasecmp(have, uuid) && g_hash_table_remove(mock_running, name))
        mock_state.n_running--;
    return 0;
}

static int
mock_uuid(vdc_hv *hv, const char *name, char out[VDC_HV_UUID_LEN])
{
    const char *have;

    vdc_hv_mock();
    have = g_hash_table_lookup(mock_running, name);
    if (!have)
        return 0;
    g_strlcpy(out, have, VDC_HV_UUID_LEN);
    return 1;
}

static int
mock_exists(vdc_hv *hv, const char *name)
{
    vdc_hv_mock();      /* creates the table on first use */
    return g_hash_table_contains(mock_running, name);
}

static int
mock_stalled(vdc_hv *hv, const char *name, char **why)
{
    logcall("stalled", name);
    *why = mock_state.stalled ? g_strdup("paused on an I/O error (mock)") : NULL;
    return mock_state.stalled ? 1 : 0;
}

static int
mock_domain_stats(vdc_hv *hv, const char *name, const char *const *vdevs, size_t n,
                  vdc_hv_domain_stats *out, vdc_hv_disk_io *io)
{
    int64_t c;
    size_t i;

    vdc_hv_mock();
    vdc_hv_domain_stats_init(out, io, n);
    if (!mock_state.stats_pid)
        return 0;
    if (!g_hash_table_contains(mock_running, name)) {
        vdc_error("domain %s: no such domain (mock)", name);
        return -1;
    }
    c = ++mock_state.stats_calls;
    out->domid = 1;
    out->vmm_pid = mock_state.stats_pid;
    for (i = 0; io && i < n; i++)
        io[i] = (vdc_hv_disk_io){ c, c, c * 4096, c * 4096 };
    return 0;
}

static int
mock_free_memory(vdc_hv *hv, uint64_t *bytes)
{
    logcall("free_memory", NULL);
    if (mock_state.fail_free_memory) {
        vdc_error("mock: cannot read the free memory (injected failure)");
        return -1;
    }
    *bytes = mock_state.free_memory_bytes;
    return 0;
}

const vdc_hv_ops vdc_hv_mock_ops = {
    .name = "mock",
    .open = mock_open,
    .close = mock_close,
    .versions = mock_versions,
    .create = mock_create,
    .resume = mock_resume,
    .disk_facts = mock_disk_facts,
    .backends = mock_backends,
    .wait = mock_wait,
    .destroy = mock_destroy,
    .exists = mock_exists,
    .uuid = mock_uuid,
    .run_of = mock_run_of,
    .stalled = mock_stalled,
    .domain_stats = mock_domain_stats,
    .free_memory = mock_free_memory,
};
