/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result model: JSON reading (untrusted input, every error names
 * its JSON path) and writing (json-glib), driven by the member tables of
 * result_fields.h.  Format: doc/result-format.md, version 2 (version 1
 * plus workload samples, whose object's table is result_workload.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"
#include "model/result_fields.h"

const vdc_field vdc_sample_fields[] = {
    F(VDC_F_STR, vdc_sample, test, "test", VDC_FF_REQUIRED),
    F(VDC_F_NUM, vdc_sample, value, "value", VDC_FF_REQUIRED | NUL | NN),
    F(VDC_F_STR, vdc_sample, unit, "unit", 0),
    F(VDC_F_NUM, vdc_sample, cpu_percent, "cpu_percent", NUL | NN),
    F(VDC_F_NUM, vdc_sample, latency_us, "latency_us", NUL | NN),
    F(VDC_F_NUM, vdc_sample, elapsed_s, "elapsed_s", NUL | NN),
    F(VDC_F_FLAG, vdc_sample, too_fast, "too_fast", 0),
    F(VDC_F_FLAG, vdc_sample, failed, "failed", 0),
    F(VDC_F_STR, vdc_sample, error, "error", NUL),
    F(VDC_F_STR, vdc_sample, pass, "pass", 0),
    F(VDC_F_INT, vdc_sample, block_size, "block_size", NN),
    F(VDC_F_NUM, vdc_sample, user_s, "user_s", NN),
    F(VDC_F_NUM, vdc_sample, system_s, "system_s", NN),
    F(VDC_F_NUM, vdc_sample, system_us_per_op, "system_us_per_op", NN),
    F(VDC_F_INT, vdc_sample, bytes, "bytes", NN),
    F(VDC_F_INT, vdc_sample, ops, "ops", NN),
    F(VDC_F_NUM, vdc_sample, real_s, "real_s", NN),
    END
};

static const vdc_field files_fields[] = {
    F(VDC_F_INT, vdc_files_info, number, "number", NN),
    F(VDC_F_INT, vdc_files_info, max_size, "max_size", NN),
    F(VDC_F_INT, vdc_files_info, min_size, "min_size", NN),
    F(VDC_F_INT, vdc_files_info, dirs, "dirs", NN),
    F(VDC_F_INT, vdc_files_info, chunk_size, "chunk_size", NN),
    END
};

static const vdc_field source_fields[] = {
    F(VDC_F_STR, vdc_source_info, file, "file", 0),
    F(VDC_F_INT, vdc_source_info, line, "line", NN),
    F(VDC_F_STR, vdc_source_info, format, "format", 0),
    F(VDC_F_STR, vdc_source_info, section, "section", 0),
    END
};

static const vdc_field meta_fields[] = {
    F(VDC_F_STR, vdc_run_meta, tool, "tool", 0),
    F(VDC_F_STR, vdc_run_meta, hostname, "hostname", 0),
    F(VDC_F_STR, vdc_run_meta, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_run_meta, cpu_model, "cpu_model", 0),
    F(VDC_F_INT, vdc_run_meta, ram_mib, "ram_mib", NN),
    F(VDC_F_STR, vdc_run_meta, date, "date", 0),
    F(VDC_F_STR, vdc_run_meta, command_line, "command_line", VDC_FF_LONG),
    F(VDC_F_STR, vdc_run_meta, seed, "seed", 0),
    F(VDC_F_INT, vdc_run_meta, file_size_mib, "file_size_mib", NN),
    F(VDC_F_INT, vdc_run_meta, chunk_size, "chunk_size", NN),
    F(VDC_F_INT, vdc_run_meta, seeks, "seeks", NN),
    F(VDC_F_INT, vdc_run_meta, seek_processes, "seek_processes", NN),
    F(VDC_F_INT, vdc_run_meta, concurrency, "concurrency", NN),
    O(vdc_run_meta, files, "files", files_fields),
    F(VDC_F_STR, vdc_run_meta, path, "path", 0),
    F(VDC_F_STR, vdc_run_meta, fs_type, "fs_type", 0),
    F(VDC_F_STR, vdc_run_meta, device, "device", VDC_FF_NULLABLE),   /* agent: null = not known (tmpfs) */
    F(VDC_F_BOOL, vdc_run_meta, direct_io, "direct_io", 0),
    F(VDC_F_BOOL, vdc_run_meta, fsync_every_write, "fsync_every_write", 0),
    F(VDC_F_STR, vdc_run_meta, per_char, "per_char", 0),
    F(VDC_F_STR, vdc_run_meta, trace_digest, "trace_digest", 0),
    F(VDC_F_INT, vdc_run_meta, file_size_bytes, "file_size_bytes", NN),
    F(VDC_F_INT, vdc_run_meta, per_char_size, "per_char_size", NN),
    F(VDC_F_BOOL, vdc_run_meta, sweep_direct_io, "sweep_direct_io", 0),
    F(VDC_F_BOOL, vdc_run_meta, drop_caches, "drop_caches", 0),
    F(VDC_F_STR, vdc_run_meta, dd_conv, "dd_conv", 0),
    F(VDC_F_STR, vdc_run_meta, dd_iflag, "dd_iflag", 0),
    F(VDC_F_STR, vdc_run_meta, dd_oflag, "dd_oflag", 0),
    O(vdc_run_meta, source, "source", source_fields),
    END
};

/* runs[].release: monotonic seconds on the controller's clock */
static const vdc_field release_fields[] = {
    F(VDC_F_NUM, vdc_run_release, ready_s, "ready_s", NN),
    F(VDC_F_NUM, vdc_run_release, released_s, "released_s", NN),
    F(VDC_F_NUM, vdc_run_release, started_s, "started_s", NN),
    END
};

/* "samples" is handled by hand (an array of objects) */
const vdc_field vdc_run_fields[] = {
    F(VDC_F_STR, vdc_run, target, "target", VDC_FF_REQUIRED),
    F(VDC_F_INT, vdc_run, repetition, "repetition", NN),
    F(VDC_F_INT, vdc_run, level, "level", NN),
    F(VDC_F_INT, vdc_run, guest, "guest", NN),
    O(vdc_run, release, "release", release_fields),
    F(VDC_F_STR, vdc_run, status, "status", 0),
    F(VDC_F_STR, vdc_run, error, "error", NUL),
    O(vdc_run, meta, "metadata", meta_fields),
    END
};

static const vdc_field requested_fields[] = {
    F(VDC_F_STR, vdc_target_requested, disk_spec, "disk_spec", 0),
    F(VDC_F_STR, vdc_target_requested, domain_xml_disk, "domain_xml_disk", VDC_FF_LONG),
    F(VDC_F_STR, vdc_target_requested, image_backend, "image_backend", 0),
    F(VDC_F_STR, vdc_target_requested, image_cache, "image_cache", 0),
    F(VDC_F_STR, vdc_target_requested, disk_cache, "disk_cache", 0),
    F(VDC_F_STR, vdc_target_requested, disk_io, "disk_io", 0),
    F(VDC_F_INT, vdc_target_requested, iothreads, "iothreads", NN),
    F(VDC_F_INT, vdc_target_requested, queues, "queues", NN),
    F(VDC_F_STR, vdc_target_requested, disk_bus, "disk_bus", 0),
    END
};

static const vdc_field backend_qemu_fields[] = {
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_direct, "cache_direct", 0),
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_no_flush, "cache_no_flush", 0),
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_writeback, "cache_writeback", 0),
    F(VDC_F_STR, vdc_target_backend_qemu, aio, "aio", 0),
    /* null: no I/O thread */
    F(VDC_F_STR, vdc_target_backend_qemu, iothread, "iothread", VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_backend_qemu, queues, "queues", NN),
    F(VDC_F_STR, vdc_target_backend_qemu, source, "source", 0),
    END
};

static const vdc_field backend_fields[] = {
    F(VDC_F_STR, vdc_target_backend, type, "type", 0),
    F(VDC_F_STR, vdc_target_backend, source, "source", 0),
    F(VDC_F_STR, vdc_target_backend, xenstore_path, "xenstore_path", 0),
    F(VDC_F_STR, vdc_target_backend, physical_device, "physical_device", 0),
    F(VDC_F_STR, vdc_target_backend, params, "params", 0),
    F(VDC_F_BOOL, vdc_target_backend, direct_io_safe, "direct_io_safe", 0),
    F(VDC_F_STR, vdc_target_backend, mode, "mode", 0),
    F(VDC_F_STR, vdc_target_backend, vdev, "vdev", 0),
    F(VDC_F_STR, vdc_target_backend, driver_name, "driver_name", 0),
    F(VDC_F_STR, vdc_target_backend, cache, "cache", 0),
    F(VDC_F_STR, vdc_target_backend, io, "io", 0),
    F(VDC_F_STR, vdc_target_backend, bus, "bus", 0),
    /* null: no I/O thread */
    F(VDC_F_INT, vdc_target_backend, iothread, "iothread", NN | VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_backend, queues, "queues", NN),
    O(vdc_target_backend, qemu, "qemu", backend_qemu_fields),
    F(VDC_F_INT, vdc_target_backend, max_ring_page_order, "max_ring_page_order", NN),
    F(VDC_F_INT, vdc_target_backend, max_queues, "max_queues", NN),
    F(VDC_F_INT, vdc_target_backend, ring_page_order, "ring_page_order", NN),
    END
};

static const vdc_field thin_fields[] = {
    F(VDC_F_STR, vdc_target_thin, pool, "pool", 0),
    /* null: lvm2's report could not be read */
    F(VDC_F_INT, vdc_target_thin, chunk_size, "chunk_size", NN | VDC_FF_NULLABLE),
    F(VDC_F_BOOL, vdc_target_thin, zeroing, "zeroing", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_thin, discards, "discards", 0),
    F(VDC_F_INT, vdc_target_thin, pool_size, "pool_size", NN),
    F(VDC_F_INT, vdc_target_thin, metadata_size, "metadata_size", NN),
    F(VDC_F_STR, vdc_target_thin, source, "source", 0),
    END     /* "data_percent" by hand */
};

static const vdc_field qcow2_fields[] = {
    F(VDC_F_INT, vdc_target_qcow2, cluster_size, "cluster_size", NN | VDC_FF_NULLABLE),
    /* null: QEMU's default */
    F(VDC_F_INT, vdc_target_qcow2, l2_cache_size, "l2_cache_size", NN | VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_qcow2, preallocation, "preallocation", 0),
    F(VDC_F_INT, vdc_target_qcow2, virtual_size, "virtual_size", NN),
    F(VDC_F_INT, vdc_target_qcow2, actual_size, "actual_size", NN),
    F(VDC_F_STR, vdc_target_qcow2, compat, "compat", 0),
    F(VDC_F_BOOL, vdc_target_qcow2, lazy_refcounts, "lazy_refcounts", 0),
    F(VDC_F_BOOL, vdc_target_qcow2, extended_l2, "extended_l2", 0),
    F(VDC_F_INT, vdc_target_qcow2, mapped_bytes, "mapped_bytes", NN),
    F(VDC_F_INT, vdc_target_qcow2, mapped_zero_bytes, "mapped_zero_bytes", NN),
    F(VDC_F_STR, vdc_target_qcow2, source, "source", 0),
    END
};

static const vdc_field storage_fields[] = {
    F(VDC_F_STR, vdc_target_storage, path, "path", 0),
    F(VDC_F_INT, vdc_target_storage, size_bytes, "size_bytes", NN),
    F(VDC_F_STR, vdc_target_storage, format, "format", 0),
    F(VDC_F_STR, vdc_target_storage, alloc, "alloc", 0),
    F(VDC_F_STR, vdc_target_storage, vg, "vg", 0),
    F(VDC_F_STR, vdc_target_storage, lv, "lv", 0),
    F(VDC_F_INT, vdc_target_storage, stripes, "stripes", NN),
    F(VDC_F_INT, vdc_target_storage, stripe_size, "stripe_size", NN),
    /* null: not known (an LV whose VG did not report it) */
    F(VDC_F_INT, vdc_target_storage, pe_start, "pe_start", NN | VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_storage, device, "device", 0),
    F(VDC_F_STR, vdc_target_storage, lv_type, "lv_type", 0),
    O(vdc_target_storage, thin, "thin", thin_fields),
    O(vdc_target_storage, qcow2, "qcow2", qcow2_fields),
    END
};

/* "layers" and "misaligned" are handled by hand */
static const vdc_field alignment_fields[] = {
    F(VDC_F_STR, vdc_target_alignment, disk, "disk", 0),
    F(VDC_F_INT, vdc_target_alignment, physical_block_size, "physical_block_size", NN),
    F(VDC_F_INT, vdc_target_alignment, minimum_io_size, "minimum_io_size", NN),
    F(VDC_F_INT, vdc_target_alignment, optimal_io_size, "optimal_io_size", NN),
    F(VDC_F_INT, vdc_target_alignment, alignment_offset, "alignment_offset", NN),
    F(VDC_F_STR, vdc_target_alignment, source, "source", 0),
    END
};

static const vdc_field filesystem_fields[] = {
    F(VDC_F_STR, vdc_target_filesystem, type, "type", 0),
    F(VDC_F_STR, vdc_target_filesystem, mkfs_options, "mkfs_options", 0),
    END
};

static const vdc_field cache_fields[] = {
    F(VDC_F_STR, vdc_target_cache, requested, "requested", 0),
    F(VDC_F_BOOL, vdc_target_cache, bypasses_dom0_page_cache, "bypasses_dom0_page_cache", 0),
    F(VDC_F_STR, vdc_target_cache, loop_device, "loop_device", 0),
    F(VDC_F_STR, vdc_target_cache, loop_backing_file, "loop_backing_file", 0),
    F(VDC_F_BOOL, vdc_target_cache, loop_dio, "loop_dio", 0),
    F(VDC_F_INT, vdc_target_cache, loop_offset, "loop_offset", NN),
    /* null: the key is absent in xenstore */
    F(VDC_F_BOOL, vdc_target_cache, direct_io_safe, "direct_io_safe", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_cache, libvirt_cache, "libvirt_cache", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_cache, libvirt_io, "libvirt_io", VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_cache, qemu_pid, "qemu_pid", NN),
    F(VDC_F_BOOL, vdc_target_cache, qemu_o_direct, "qemu_o_direct", 0),
    F(VDC_F_STR, vdc_target_cache, source, "source", 0),
    F(VDC_F_STR, vdc_target_cache, error, "error", 0),
    END
};

/* "ranges" is handled by hand (an array of [start, length]) */
static const vdc_field placement_fields[] = {
    F(VDC_F_STR, vdc_target_placement, disk, "disk", 0),
    F(VDC_F_BOOL, vdc_target_placement, rotational, "rotational", 0),
    F(VDC_F_INT, vdc_target_placement, disk_bytes, "disk_bytes", NN),
    F(VDC_F_INT, vdc_target_placement, extents, "extents", NN),
    F(VDC_F_INT, vdc_target_placement, mapped_bytes, "mapped_bytes", NN),
    F(VDC_F_INT, vdc_target_placement, unmapped_bytes, "unmapped_bytes", NN),
    FMAX(VDC_F_NUM, vdc_target_placement, center_bytes, "center_bytes", NN, VDC_BYTES_MAX),
    F(VDC_F_INT, vdc_target_placement, ranges_omitted, "ranges_omitted", NN),
    F(VDC_F_STR, vdc_target_placement, source, "source", 0),
    F(VDC_F_STR, vdc_target_placement, reason, "reason", 0),
    END
};

static const vdc_field provenance_fields[] = {
    F(VDC_F_STR, vdc_target_provenance, kind, "kind", 0),
    F(VDC_F_STR, vdc_target_provenance, memory_mib, "memory_mib", 0),
    F(VDC_F_STR, vdc_target_provenance, dom0_memory_mib, "dom0_memory_mib", 0),
    END
};

const vdc_field vdc_target_fields[] = {
    F(VDC_F_STR, vdc_target, name, "name", VDC_FF_REQUIRED),
    F(VDC_F_STR, vdc_target, kind, "kind", 0),
    F(VDC_F_STR, vdc_target, where, "where", 0),
    F(VDC_F_INT, vdc_target, memory_mib, "memory_mib", NN),
    F(VDC_F_INT, vdc_target, dom0_memory_mib, "dom0_memory_mib", NN),
    O(vdc_target, provenance, "provenance", provenance_fields),
    O(vdc_target, requested, "requested", requested_fields),
    O(vdc_target, backend, "backend", backend_fields),
    O(vdc_target, storage, "storage", storage_fields),
    O(vdc_target, filesystem, "filesystem", filesystem_fields),
    O(vdc_target, cache, "cache", cache_fields),
    O(vdc_target, placement, "placement", placement_fields),
    O(vdc_target, alignment, "alignment", alignment_fields),
    END
};

static const vdc_field image_dir_fields[] = {
    F(VDC_F_STR, vdc_image_dir_info, path, "path", 0),
    F(VDC_F_STR, vdc_image_dir_info, fs_type, "fs_type", 0),
    F(VDC_F_STR, vdc_image_dir_info, device, "device", 0),
    F(VDC_F_BOOL, vdc_image_dir_info, rotational, "rotational", 0),
    F(VDC_F_STR, vdc_image_dir_info, scheduler, "scheduler", 0),
    F(VDC_F_STR, vdc_image_dir_info, model, "model", 0),
    F(VDC_F_INT, vdc_image_dir_info, logical_block_size, "logical_block_size", NN),
    F(VDC_F_INT, vdc_image_dir_info, physical_block_size, "physical_block_size", NN),
    END
};

static const vdc_field host_fields[] = {
    F(VDC_F_STR, vdc_host_info, hostname, "hostname", 0),
    F(VDC_F_STR, vdc_host_info, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_host_info, cpu_model, "cpu_model", 0),
    F(VDC_F_INT, vdc_host_info, cpu_count, "cpu_count", NN),
    F(VDC_F_INT, vdc_host_info, ram_mib, "ram_mib", NN),
    F(VDC_F_STR, vdc_host_info, cpu_governor, "cpu_governor", 0),
    F(VDC_F_STR, vdc_host_info, cmdline, "cmdline", VDC_FF_LONG),
    F(VDC_F_STR, vdc_host_info, mkfs_version, "mkfs_version", 0),
    O(vdc_host_info, image_dir, "image_dir", image_dir_fields),
    END
};

static const vdc_field hypervisor_fields[] = {
    F(VDC_F_STR, vdc_hypervisor_info, driver, "driver", 0),
    F(VDC_F_STR, vdc_hypervisor_info, uri, "uri", 0),
    F(VDC_F_STR, vdc_hypervisor_info, xen_version, "xen_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, libvirt_version, "libvirt_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, qemu_version, "qemu_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, libxl_version, "libxl_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, xen_commandline, "xen_commandline", 0),
    END
};

static const vdc_field guest_fields[] = {
    F(VDC_F_STR, vdc_guest_info, template_path, "template", 0),
    F(VDC_F_STR, vdc_guest_info, template_sha256, "template_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, agent_sha256, "agent_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, prepared_image, "prepared_image", 0),
    F(VDC_F_INT, vdc_guest_info, memory_mib, "memory_mib", NN),
    F(VDC_F_INT, vdc_guest_info, vcpus, "vcpus", NN),
    F(VDC_F_STR, vdc_guest_info, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_guest_info, kernel_sha256, "kernel_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, initrd, "initrd", 0),
    F(VDC_F_STR, vdc_guest_info, initrd_sha256, "initrd_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, cmdline, "cmdline", VDC_FF_LONG),
    END
};

/* experiment.runs_policy; its "stop" array is loaded and written by
 * load_stop and runs_policy_stop_json with vdc_stop_record_fields */
static const vdc_field runs_policy_fields[] = {
    F(VDC_F_STR, vdc_runs_policy, mode, "mode", 0),
    F(VDC_F_INT, vdc_runs_policy, min_runs, "min_runs", NN),
    F(VDC_F_INT, vdc_runs_policy, max_runs, "max_runs", NN),
    F(VDC_F_NUM, vdc_runs_policy, precision_percent, "precision_percent", NN),
    END
};

/* experiment.time: seconds */
static const vdc_field time_fields[] = {
    F(VDC_F_NUM, vdc_time_info, total_s, "total_s", NN),
    F(VDC_F_NUM, vdc_time_info, prepare_s, "prepare_s", NN),
    F(VDC_F_NUM, vdc_time_info, provision_s, "provision_s", NN),
    F(VDC_F_NUM, vdc_time_info, domu_s, "domu_s", NN),
    F(VDC_F_NUM, vdc_time_info, domu_agent_s, "domu_agent_s", NN),
    F(VDC_F_NUM, vdc_time_info, dom0_s, "dom0_s", NN),
    F(VDC_F_NUM, vdc_time_info, teardown_s, "teardown_s", NN),
    END
};

const vdc_field vdc_stop_record_fields[] = {
    F(VDC_F_STR, vdc_stop_record, test, "test", VDC_FF_REQUIRED),
    F(VDC_F_STR, vdc_stop_record, target, "target", 0),
    F(VDC_F_STR, vdc_stop_record, reference, "reference", 0),
    F(VDC_F_STR, vdc_stop_record, reason, "reason", VDC_FF_REQUIRED),
    F(VDC_F_INT, vdc_stop_record, runs, "runs", NN),
    F(VDC_F_NUM, vdc_stop_record, half_width_percent, "half_width_percent", NN),
    END
};

/* experiment.levels[i]; its "host" object is loaded and written by hand */
const vdc_field vdc_level_record_fields[] = {
    F(VDC_F_INT, vdc_level_record, guests, "guests", VDC_FF_REQUIRED | NN),
    F(VDC_F_INT, vdc_level_record, repetition, "repetition", NN),
    F(VDC_F_STR, vdc_level_record, target, "target", 0),
    F(VDC_F_NUM, vdc_level_record, start_skew_s, "start_skew_s", NN),
    F(VDC_F_STR, vdc_level_record, status, "status", 0),
    F(VDC_F_STR, vdc_level_record, error, "error", NUL),
    END
};

const vdc_field vdc_experiment_fields[] = {
    F(VDC_F_STR, vdc_experiment, id, "id", 0),
    F(VDC_F_STR, vdc_experiment, build, "build", 0),
    F(VDC_F_STR, vdc_experiment, date, "date", 0),
    F(VDC_F_STR, vdc_experiment, command_line, "command_line", VDC_FF_LONG),
    F(VDC_F_STR, vdc_experiment, seed, "seed", 0),
    F(VDC_F_INT, vdc_experiment, runs_per_target, "runs_per_target", NN),
    F(VDC_F_STR, vdc_experiment, order, "order", 0),
    O(vdc_experiment, runs_policy, "runs_policy", runs_policy_fields),
    O(vdc_experiment, time, "time", time_fields),
    F(VDC_F_BOOL, vdc_experiment, emulated, "emulated", 0),
    O(vdc_experiment, host, "host", host_fields),
    O(vdc_experiment, hypervisor, "hypervisor", hypervisor_fields),
    O(vdc_experiment, guest, "guest", guest_fields),
    END
};

/* ---- Loading ---------------------------------------------------------------- */

typedef struct {
    const char *name;   /* input name for messages */
    GString *path;      /* current JSON path */
    GHashTable *reps;   /* "target\nlevel\nguest" -> runs seen (GINT_TO_POINTER count) */
    GHashTable *seen;   /* "target\nrepetition\nlevel\nguest" -> runs[] index + 1 */
    int64_t version;    /* the document's format_version */
} load_ctx;

static int __attribute__((format(printf, 2, 3)))
load_fail(load_ctx *c, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_error("%s: %s: %s", c->name, c->path->len ? c->path->str : "(top level)", msg);
    g_free(msg);
    return -1;
}

static void
path_push(load_ctx *c, const char *member, gsize *saved)
{
    *saved = c->path->len;
    if (c->path->len)
        g_string_append_c(c->path, '.');
    g_string_append(c->path, member);
}

static void
path_push_index(load_ctx *c, guint i, gsize *saved)
{
    *saved = c->path->len;
    g_string_append_printf(c->path, "[%u]", i);
}

static void
path_pop(load_ctx *c, gsize saved)
{
    g_string_truncate(c->path, saved);
}

static int
node_is_number(JsonNode *n)
{
    GType t;

    if (!JSON_NODE_HOLDS_VALUE(n))
        return 0;
    t = json_node_get_value_type(n);
    return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static int load_fields(load_ctx *c, const vdc_field *fields, JsonObject *o, void *obj);

/* A string member: at most @max bytes (a 100 MB hostname would be copied
 * into every report), stored in *@dst. */
static int
load_string(load_ctx *c, const char *s, size_t max, char **dst)
{
    size_t len = strlen(s);

    if (len > max)
        return load_fail(c, "expected a string of at most %zu bytes, found %zu bytes", max, len);
    vdc_set_str(dst, s);
    return 0;
}

static int
load_field(load_ctx *c, const vdc_field *f, JsonNode *n, void *obj)
{
    char *p = (char *)obj + f->off;

    if (JSON_NODE_HOLDS_NULL(n)) {
        if (f->flags & VDC_FF_NULLABLE)
            return 0;
        return load_fail(c, "expected %s, not null",
                         f->type == VDC_F_STR ? "a string" :
                         f->type == VDC_F_OBJ ? "an object" :
                         f->type == VDC_F_BOOL || f->type == VDC_F_FLAG ? "a boolean" :
                         f->type == VDC_F_INT ? "an integer" : "a number");
    }
    switch (f->type) {
    case VDC_F_STR:
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
            return load_fail(c, "expected a string%s",
                             f->flags & VDC_FF_NULLABLE ? " or null" : "");
        return load_string(c, json_node_get_string(n),
                           f->flags & VDC_FF_LONG ? VDC_RESULT_LONG_STRING_MAX : VDC_RESULT_STRING_MAX,
                           (char **)p);
    case VDC_F_INT: {
        double d;

        if (!node_is_number(n))
            return load_fail(c, "expected an integer");
        if (json_node_get_value_type(n) == G_TYPE_INT64) {
            *(int64_t *)p = json_node_get_int(n);
        } else {
            d = json_node_get_double(n);
            /* 512.0 is fine; 2^63 and above, and fractions, are not */
            if (d != floor(d) || d < -9.2e18 || d > 9.2e18)
                return load_fail(c, "expected an integer");
            *(int64_t *)p = (int64_t)d;
        }
        if ((f->flags & VDC_FF_NONNEG) && *(int64_t *)p < 0)
            return load_fail(c, "expected an integer >= 0");
        return 0;
    }
    case VDC_F_NUM: {
        double d;

        if (!node_is_number(n))
            return load_fail(c, "expected a number%s",
                             f->flags & VDC_FF_NULLABLE ? " or null" : "");
        d = json_node_get_value_type(n) == G_TYPE_INT64 ? (double)json_node_get_int(n)
                                                         : json_node_get_double(n);
        if (!isfinite(d) || ((f->flags & VDC_FF_NONNEG) && d < 0))
            return load_fail(c, "expected a finite number >= 0");
        /* a physical bound: no quantity of the model is near DBL_MAX, and
         * a value there would overflow every sum and chart axis */
        if (fabs(d) > (f->max > 0 ? f->max : VDC_NUMBER_MAX))
            return load_fail(c, "%g: expected a number of magnitude at most %g", d,
                             f->max > 0 ? f->max : VDC_NUMBER_MAX);
        *(double *)p = d;
        return 0;
    }
    case VDC_F_BOOL:
    case VDC_F_FLAG:
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
            return load_fail(c, "expected a boolean");
        *(int *)p = json_node_get_boolean(n) ? 1 : 0;
        return 0;
    case VDC_F_OBJ:
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return load_fail(c, "expected an object");
        return load_fields(c, f->sub, json_node_get_object(n), p);
    }
    return load_fail(c, "internal: unknown member type");
}

static int
load_fields(load_ctx *c, const vdc_field *fields, JsonObject *o, void *obj)
{
    const vdc_field *f;

    for (f = fields; f->name; f++) {
        JsonNode *n = json_object_get_member(o, f->name);
        gsize saved;
        int rc;

        path_push(c, f->name, &saved);
        if (!n) {
            rc = (f->flags & VDC_FF_REQUIRED) ? load_fail(c, "missing") : 0;
        } else {
            rc = load_field(c, f, n, obj);
        }
        path_pop(c, saved);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int load_thin_percent(load_ctx *c, JsonObject *storage, vdc_target_thin *th);

/* Member @name of @o when it is an object, else NULL.  Borrowed. */
static JsonObject *
object_member(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* One object by its member table, outside a document: messages name
 * WHAT.member. */
static int
load_object(const vdc_field *fields, JsonObject *o, void *obj, const char *what)
{
    load_ctx c = { .name = what, .path = g_string_new(NULL) };
    int rc = load_fields(&c, fields, o, obj);

    g_string_free(c.path, TRUE);
    return rc;
}

int
vdc_target_backend_from_json(vdc_target_backend *b, JsonObject *o, const char *what)
{
    return load_object(backend_fields, o, b, what);
}

int
vdc_target_storage_from_json(vdc_target_storage *s, JsonObject *o, const char *what)
{
    load_ctx c = { .name = what, .path = g_string_new(NULL) };
    int rc = load_fields(&c, storage_fields, o, s);

    if (rc == 0)
        rc = load_thin_percent(&c, o, &s->thin);
    g_string_free(c.path, TRUE);
    return rc;
}

void vdc_target_cache_init(vdc_target_cache *c) { vdc_fields_init(cache_fields, c); }
void vdc_target_cache_dispose(vdc_target_cache *c) { vdc_fields_dispose(cache_fields, c); }

void
vdc_target_cache_copy(vdc_target_cache *dst, const vdc_target_cache *src)
{
    vdc_fields_dispose(cache_fields, dst);
    vdc_fields_copy(cache_fields, dst, src);
}

int
vdc_target_cache_from_json(vdc_target_cache *c, JsonObject *o, const char *what)
{
    return load_object(cache_fields, o, c, what);
}

int
vdc_hypervisor_info_from_json(vdc_hypervisor_info *h, JsonObject *o, const char *what)
{
    return load_object(hypervisor_fields, o, h, what);
}

/* "runs[i].samples[j].workload" of a workload sample @s: the member
 * table, iops_series.values by hand, then the limits */
static int
load_workload(load_ctx *c, JsonObject *sample, vdc_sample *s)
{
    JsonNode *n = json_object_get_member(sample, "workload"), *v;
    const char *member = NULL;
    char *why = NULL;
    gsize saved, s2;
    int rc;

    path_push(c, "workload", &saved);
    if (c->version < 2)
        return load_fail(c, "%s samples need format_version 2, found %" G_GINT64_FORMAT,
                         s->test, (gint64)c->version);
    if (!n)
        return load_fail(c, "missing (required for %s)", s->test);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    s->workload = vdc_workload_new();
    if (load_fields(c, vdc_workload_fields, json_node_get_object(n), s->workload) < 0)
        return -1;
    v = json_object_get_member(json_node_get_object(n), "iops_series");
    if (v && JSON_NODE_HOLDS_OBJECT(v) && (v = json_object_get_member(json_node_get_object(v), "values"))) {
        JsonArray *a;
        guint i, len;

        path_push(c, "iops_series.values", &s2);
        if (!JSON_NODE_HOLDS_ARRAY(v))
            return load_fail(c, "expected an array of numbers");
        a = json_node_get_array(v);
        len = json_array_get_length(a);
        if (len > VDC_WORKLOAD_SERIES_MAX)
            return load_fail(c, "expected at most %d values, found %u", VDC_WORKLOAD_SERIES_MAX, len);
        s->workload->iops_values = g_new(double, len ? len : 1);
        for (i = 0; i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            double d;

            if (!node_is_number(e)) {
                path_push_index(c, i, &s2);
                return load_fail(c, "expected a number");
            }
            d = json_node_get_value_type(e) == G_TYPE_INT64 ? (double)json_node_get_int(e)
                                                             : json_node_get_double(e);
            s->workload->iops_values[s->workload->n_iops_values++] = d;
        }
        path_pop(c, s2);
    }
    if (vdc_workload_check(s->workload, &member, &why) < 0) {
        path_push(c, member, &s2);
        rc = load_fail(c, "%s", why);
        g_free(why);
        return rc;
    }
    path_pop(c, saved);
    return 0;
}

/* "runs[i].samples[j]": fields, then the test id and its block size */
/* the optional "host" member of a run (@sample 0) or sample: an object,
 * kept as it is; a sample's checked by vdc_host_check */
static int
load_host(load_ctx *c, JsonObject *o, JsonObject **dst, int sample)
{
    JsonNode *h = json_object_get_member(o, "host");
    g_autofree char *why = NULL;
    gsize saved;

    if (!h)
        return 0;
    path_push(c, "host", &saved);
    if (!JSON_NODE_HOLDS_OBJECT(h))
        return load_fail(c, "expected an object");
    if (sample && (why = vdc_host_check(json_node_get_object(h))))
        return load_fail(c, "%s", why);
    path_pop(c, saved);
    *dst = json_object_ref(json_node_get_object(h));
    return 0;
}

static int
load_sample(load_ctx *c, JsonNode *n, vdc_run *r)
{
    const vdc_test_info *ti;
    vdc_sample *s;
    gsize saved;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    s = vdc_run_add_sample(r, "");
    if (load_fields(c, vdc_sample_fields, json_node_get_object(n), s) < 0)
        return -1;
    if (s->pass && (!*s->pass || strlen(s->pass) > 31 ||
                    strspn(s->pass, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(s->pass))) {
        path_push(c, "pass", &saved);
        return load_fail(c, "expected 1-31 of [a-z0-9-] (e.g. first-write)");
    }
    ti = vdc_test_lookup(s->test);
    path_push(c, "test", &saved);
    if (!ti) {
        char *q = g_strescape(s->test, NULL);
        GString *ids = g_string_new(NULL);
        int i, rc;

        /* "putc, put_block, ... or dd_copy": the ids of the test table */
        for (i = 0; i < VDC_TEST_COUNT; i++)
            g_string_append_printf(ids, "%s%s", i == 0 ? "" : i + 1 == VDC_TEST_COUNT ? " or " : ", ",
                                   vdc_tests[i].name);
        rc = load_fail(c, "unknown test id \"%s\": expected %s", q, ids->str);
        g_string_free(ids, TRUE);
        g_free(q);
        return rc;
    }
    path_pop(c, saved);
    if (ti->sweep && (s->block_size == VDC_INT_ABSENT || s->block_size <= 0)) {
        path_push(c, "block_size", &saved);
        return load_fail(c, "expected an integer > 0 (required for %s)", ti->name);
    }
    if (ti->workload && load_workload(c, json_node_get_object(n), s) < 0)
        return -1;
    if (load_host(c, json_node_get_object(n), &s->host, 1) < 0)
        return -1;
    if (!s->unit) {
        vdc_set_str(&s->unit, ti->unit);
    } else if (strcmp(s->unit, ti->unit)) {
        /* every producer writes the test table's unit: another one would
         * be pooled and compared with it as if it were the same */
        char *q = g_strescape(s->unit, NULL);
        int rc;

        path_push(c, "unit", &saved);
        rc = load_fail(c, "\"%s\": expected \"%s\", the unit of %s", q, ti->unit, ti->name);
        g_free(q);
        return rc;
    }
    {
        g_autofree char *why = vdc_sample_bounds_check(s);

        if (why)
            return load_fail(c, "%s", why);
    }
    return 0;
}

/* runs[i].level and guest: a level of 1 to VDC_LEVEL_MAX guests, a guest
 * below its level (absent: level 1, guest 0) */
static int
load_run_level(load_ctx *c, vdc_run *r)
{
    gsize saved;

    if (r->level != VDC_INT_ABSENT && (r->level < 1 || r->level > VDC_LEVEL_MAX)) {
        path_push(c, "level", &saved);
        return load_fail(c, "expected an integer from 1 to %d", VDC_LEVEL_MAX);
    }
    if (vdc_run_guest(r) >= vdc_run_level(r)) {
        path_push(c, "guest", &saved);
        return load_fail(c, "expected an integer from 0 to %" G_GINT64_FORMAT " (level - 1)",
                         (gint64)vdc_run_level(r) - 1);
    }
    return 0;
}

static int
load_run(load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    JsonObject *o;
    JsonNode *samples;
    JsonArray *a;
    vdc_run *r;
    gsize saved;
    guint i;
    size_t k;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    o = json_node_get_object(n);
    r = vdc_result_set_append_run(rs);
    if (load_fields(c, vdc_run_fields, o, r) < 0)
        return -1;
    if (!*r->target) {
        path_push(c, "target", &saved);
        return load_fail(c, "expected a non-empty string");
    }
    if (!vdc_target_name_ok(r->target)) {
        path_push(c, "target", &saved);
        return load_fail(c, "expected printable text of at most %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    if (!r->status) {
        vdc_set_str(&r->status, "ok");
    } else if (strcmp(r->status, "ok") && strcmp(r->status, "failed") &&
               strcmp(r->status, "timeout")) {
        path_push(c, "status", &saved);
        return load_fail(c, "expected \"ok\", \"failed\" or \"timeout\"");
    }
    if (load_run_level(c, r) < 0)
        return -1;
    /* hash tables, not scans: a hostile document may hold many runs */
    {
        char *who = vdc_run_who(r);

        k = GPOINTER_TO_SIZE(g_hash_table_lookup(c->reps, who));
        if (r->repetition == VDC_INT_ABSENT)
            r->repetition = (int64_t)k;   /* its index among the runs of its target (level, guest) */
        g_hash_table_replace(c->reps, who, GSIZE_TO_POINTER(k + 1));
    }
    {
        char *key = g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT,
                                    r->target, (gint64)r->repetition, (gint64)vdc_run_level(r),
                                    (gint64)vdc_run_guest(r));
        size_t prev = GPOINTER_TO_SIZE(g_hash_table_lookup(c->seen, key));

        if (prev) {
            g_free(key);
            if (r->level == VDC_INT_ABSENT && r->guest == VDC_INT_ABSENT)
                return load_fail(c, "duplicate run: target \"%s\" repetition %" G_GINT64_FORMAT
                                 " already seen in runs[%zu]", r->target,
                                 (gint64)r->repetition, prev - 1);
            return load_fail(c, "duplicate run: target \"%s\" repetition %" G_GINT64_FORMAT
                             " level %" G_GINT64_FORMAT " guest %" G_GINT64_FORMAT
                             " already seen in runs[%zu]", r->target, (gint64)r->repetition,
                             (gint64)vdc_run_level(r), (gint64)vdc_run_guest(r), prev - 1);
        }
        g_hash_table_insert(c->seen, key, GSIZE_TO_POINTER(rs->n_runs));
    }
    if (load_host(c, o, &r->host, 0) < 0)
        return -1;
    samples = json_object_get_member(o, "samples");
    path_push(c, "samples", &saved);
    if (!samples)
        return load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_ARRAY(samples))
        return load_fail(c, "expected an array");
    a = json_node_get_array(samples);
    {
        /* one sample per test (and block size) per run: a second one
         * would count as one more run in the statistics */
        GHashTable *tests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int rc = 0;

        for (i = 0; i < json_array_get_length(a) && rc == 0; i++) {
            gsize s2;
            const vdc_sample *sm;
            char *key;

            path_push_index(c, i, &s2);
            if (load_sample(c, json_array_get_element(a, i), r) < 0) {
                rc = -1;
                break;
            }
            sm = r->samples[r->n_samples - 1];
            key = sm->workload ? vdc_sample_key(sm)
                  : g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%s", sm->test,
                                    (gint64)sm->block_size, sm->pass ? sm->pass : "");
            if (g_hash_table_contains(tests, key)) {
                char bs[48] = "";

                if (sm->workload)
                    snprintf(bs, sizeof(bs), " (job %.30s)", sm->workload->name);
                else if (sm->block_size != VDC_INT_ABSENT)
                    snprintf(bs, sizeof(bs), " (block size %" G_GINT64_FORMAT ")", (gint64)sm->block_size);
                rc = load_fail(c, "duplicate sample: test %s%s%s%s already measured in this run",
                               sm->test, bs, sm->pass ? " pass " : "", sm->pass ? sm->pass : "");
                g_free(key);
                break;
            }
            g_hash_table_add(tests, key);
            path_pop(c, s2);
        }
        g_hash_table_destroy(tests);
        if (rc < 0)
            return -1;
    }
    path_pop(c, saved);
    return 0;
}

/* "targets[i].placement.ranges": at most VDC_PLACEMENT_RANGES_MAX pairs
 * [start, length] of integers >= 0 */
static int
load_placement_ranges(load_ctx *c, JsonObject *target, vdc_target_placement *pl)
{
    JsonNode *n = json_object_get_member(target, "placement");
    JsonArray *a;
    gsize saved, s2;
    guint i, len;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n) ||
        !(n = json_object_get_member(json_node_get_object(n), "ranges")))
        return 0;
    path_push(c, "placement.ranges", &saved);
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return load_fail(c, "expected an array of [start, length]");
    a = json_node_get_array(n);
    len = json_array_get_length(a);
    if (len > VDC_PLACEMENT_RANGES_MAX)
        return load_fail(c, "expected at most %d ranges, found %u", VDC_PLACEMENT_RANGES_MAX, len);
    pl->ranges = g_new0(int64_t, 2 * (size_t)len + 1);
    for (i = 0; i < len; i++) {
        JsonNode *e = json_array_get_element(a, i);
        JsonArray *p;
        guint k;

        path_push_index(c, i, &s2);
        if (!JSON_NODE_HOLDS_ARRAY(e) || json_array_get_length(p = json_node_get_array(e)) != 2)
            return load_fail(c, "expected [start, length]");
        for (k = 0; k < 2; k++) {
            JsonNode *v = json_array_get_element(p, k);

            if (!node_is_number(v) || json_node_get_value_type(v) != G_TYPE_INT64 ||
                json_node_get_int(v) < 0)
                return load_fail(c, "expected [start, length] as integers >= 0 (bytes)");
            pl->ranges[2 * i + k] = json_node_get_int(v);
        }
        path_pop(c, s2);
    }
    pl->n_ranges = len;
    path_pop(c, saved);
    return 0;
}

/* "targets[i].storage.thin.data_percent": [before, after], each a number
 * from 0 to 100 or null */
static int
load_thin_percent(load_ctx *c, JsonObject *storage, vdc_target_thin *th)
{
    JsonNode *n = storage ? json_object_get_member(storage, "thin") : NULL;
    JsonArray *a;
    gsize saved;
    guint i;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n) || !(n = json_object_get_member(json_node_get_object(n), "data_percent")))
        return 0;
    path_push(c, "storage.thin.data_percent", &saved);
    if (!JSON_NODE_HOLDS_ARRAY(n) || json_array_get_length(a = json_node_get_array(n)) != 2)
        return load_fail(c, "expected [before, after]");
    for (i = 0; i < 2; i++) {
        JsonNode *v = json_array_get_element(a, i);
        double d;

        if (JSON_NODE_HOLDS_NULL(v))
            continue;
        if (!node_is_number(v) || !isfinite(d = json_node_get_double(v)) || d < 0 || d > 100)
            return load_fail(c, "expected [before, after] as numbers from 0 to 100 (%%) or null");
        th->data_percent[i] = d;
    }
    path_pop(c, saved);
    return 0;
}

/* 1 when @name is one of VDC_ALIGN_LAYER_NAMES */
static int
align_layer_known(const char *name)
{
    g_auto(GStrv) names = g_strsplit(VDC_ALIGN_LAYER_NAMES, "|", -1);

    return g_strv_contains((const char *const *)names, name);
}

/* "targets[i].alignment.layers" (at most VDC_TARGET_ALIGN_LAYERS_MAX of
 * {layer, offset, size, why}) and "misaligned" (names of layers that
 * have a why) */
static int
load_alignment_layers(load_ctx *c, JsonObject *target, vdc_target_alignment *al)
{
    static const vdc_field layer_fields[] = {
        F(VDC_F_STR, vdc_target_align_layer, layer, "layer", VDC_FF_REQUIRED),
        F(VDC_F_INT, vdc_target_align_layer, offset, "offset", NN | VDC_FF_NULLABLE),
        F(VDC_F_INT, vdc_target_align_layer, size, "size", NN),
        F(VDC_F_STR, vdc_target_align_layer, why, "why", 0),
        END
    };
    JsonNode *n = json_object_get_member(target, "alignment"), *m;
    JsonObject *o;
    JsonArray *a;
    gsize saved, s2;
    guint i, len;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n))
        return 0;
    o = json_node_get_object(n);
    if ((m = json_object_get_member(o, "layers"))) {
        path_push(c, "alignment.layers", &saved);
        if (!JSON_NODE_HOLDS_ARRAY(m))
            return load_fail(c, "expected an array of {layer, offset, size}");
        a = json_node_get_array(m);
        if ((len = json_array_get_length(a)) > VDC_TARGET_ALIGN_LAYERS_MAX)
            return load_fail(c, "expected at most %d layers, found %u", VDC_TARGET_ALIGN_LAYERS_MAX, len);
        for (i = 0; i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            vdc_target_align_layer *l = &al->layers[al->n_layers];

            path_push_index(c, i, &s2);
            if (!JSON_NODE_HOLDS_OBJECT(e))
                return load_fail(c, "expected an object {layer, offset, size}");
            l->offset = l->size = VDC_INT_ABSENT;
            al->n_layers++;
            if (load_fields(c, layer_fields, json_node_get_object(e), l) < 0)
                return -1;
            if (!align_layer_known(l->layer))
                return load_fail(c, "layer: expected one of %s", VDC_ALIGN_LAYER_NAMES);
            path_pop(c, s2);
        }
        path_pop(c, saved);
    }
    if ((m = json_object_get_member(o, "misaligned"))) {
        path_push(c, "alignment.misaligned", &saved);
        if (!JSON_NODE_HOLDS_ARRAY(m))
            return load_fail(c, "expected an array of layer names");
        a = json_node_get_array(m);
        for (i = 0, len = json_array_get_length(a); i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            const char *name = JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING
                               ? json_node_get_string(e) : NULL;
            size_t k;

            for (k = 0; name && k < al->n_layers && strcmp(al->layers[k].layer, name); k++)
                ;
            if (!name || k == al->n_layers)
                return load_fail(c, "[%u]: expected the name of one of alignment.layers", i);
            if (!al->layers[k].why)
                al->layers[k].why = g_strdup_printf("%s misaligned (no numbers recorded)", name);
        }
        path_pop(c, saved);
    }
    return 0;
}

static int
load_target(load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_target tmp;
    vdc_target *t;
    int rc = -1;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    vdc_target_init(&tmp);
    if (load_fields(c, vdc_target_fields, json_node_get_object(n), &tmp) < 0 ||
        load_placement_ranges(c, json_node_get_object(n), &tmp.placement) < 0 ||
        load_thin_percent(c, object_member(json_node_get_object(n), "storage"), &tmp.storage.thin) < 0 ||
        load_alignment_layers(c, json_node_get_object(n), &tmp.alignment) < 0)
        goto out;
    if (!*tmp.name) {
        load_fail(c, "name: expected a non-empty string");
        goto out;
    }
    if (!vdc_target_name_ok(tmp.name)) {
        load_fail(c, "name: expected printable text of at most %d bytes (no control characters)",
                  VDC_TARGET_NAME_MAX);
        goto out;
    }
    if (vdc_result_set_find_target(rs, tmp.name)) {
        load_fail(c, "name: duplicate target \"%s\"", tmp.name);
        goto out;
    }
    t = vdc_result_set_add_target(rs, tmp.name);
    vdc_target_copy(t, &tmp);
    rc = 0;
 out:
    vdc_target_dispose(&tmp);
    return rc;
}

static int
load_array(load_ctx *c, JsonObject *top, const char *member, int required,
           int (*fn)(load_ctx *, JsonNode *, vdc_result_set *), vdc_result_set *rs)
{
    JsonNode *n = json_object_get_member(top, member);
    JsonArray *a;
    gsize saved, s2;
    guint i;

    path_push(c, member, &saved);
    if (!n) {
        if (required)
            return load_fail(c, "missing");
        path_pop(c, saved);
        return 0;
    }
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return load_fail(c, "expected an array");
    a = json_node_get_array(n);
    for (i = 0; i < json_array_get_length(a); i++) {
        path_push_index(c, i, &s2);
        if (fn(c, json_array_get_element(a, i), rs) < 0)
            return -1;
        path_pop(c, s2);
    }
    path_pop(c, saved);
    return 0;
}

/* "experiment.runs_policy.stop[i]": one stop record; its strings are
 * printed in every report, so they must be one line each */
static int
load_stop(load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_stop_record *r;
    const char *const *strs[4];
    static const char *const names[] = { "test", "target", "reference", "reason" };
    gsize saved;
    size_t i;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    r = vdc_runs_policy_add_stop(&rs->experiment.runs_policy, NULL);
    if (load_fields(c, vdc_stop_record_fields, json_node_get_object(n), r) < 0)
        return -1;
    strs[0] = (const char *const *)&r->test;
    strs[1] = (const char *const *)&r->target;
    strs[2] = (const char *const *)&r->reference;
    strs[3] = (const char *const *)&r->reason;
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!*strs[i] || vdc_target_name_ok(*strs[i]))
            continue;
        path_push(c, names[i], &saved);
        return load_fail(c, "expected a one-line string of 1 to %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    return 0;
}

/* "experiment.levels[i]": one level of many guests for one target and
 * repetition; its strings are printed in reports, one line each */
static int
load_level(load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_level_record *l;
    JsonObject *o;
    gsize saved;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    o = json_node_get_object(n);
    l = vdc_experiment_add_level(&rs->experiment);
    if (load_fields(c, vdc_level_record_fields, o, l) < 0)
        return -1;
    if (l->guests < 1 || l->guests > VDC_LEVEL_MAX) {
        path_push(c, "guests", &saved);
        return load_fail(c, "expected an integer from 1 to %d", VDC_LEVEL_MAX);
    }
    if (l->target && !vdc_target_name_ok(l->target)) {
        path_push(c, "target", &saved);
        return load_fail(c, "expected printable text of at most %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    if (l->status && strcmp(l->status, "ok") && strcmp(l->status, "failed") &&
        strcmp(l->status, "timeout")) {
        path_push(c, "status", &saved);
        return load_fail(c, "expected \"ok\", \"failed\" or \"timeout\"");
    }
    if (l->error && strpbrk(l->error, "\n\r")) {
        path_push(c, "error", &saved);
        return load_fail(c, "expected one line");
    }
    return load_host(c, o, &l->host, 1);
}

/* experiment.runs_policy.stop, when @exp (the experiment object) has one */
static int
load_runs_policy_stop(load_ctx *c, JsonObject *exp, vdc_result_set *rs)
{
    JsonNode *n = json_object_get_member(exp, "runs_policy");
    gsize saved;
    int rc;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n))
        return 0;   /* absent; a wrong type was refused with the other members */
    path_push(c, "runs_policy", &saved);
    rc = load_array(c, json_node_get_object(n), "stop", 0, load_stop, rs);
    path_pop(c, saved);
    return rc;
}

static int
load_top(load_ctx *c, JsonNode *root, vdc_result_set *rs)
{
    JsonObject *top;
    JsonNode *n;
    gsize saved;
    int64_t version;

    if (!JSON_NODE_HOLDS_OBJECT(root))
        return load_fail(c, "expected an object");
    top = json_node_get_object(root);

    n = json_object_get_member(top, "format");
    path_push(c, "format", &saved);
    if (!n)
        return load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING ||
        strcmp(json_node_get_string(n), VDC_RESULT_FORMAT))
        return load_fail(c, "expected \"%s\"", VDC_RESULT_FORMAT);
    path_pop(c, saved);

    n = json_object_get_member(top, "format_version");
    path_push(c, "format_version", &saved);
    if (!n)
        return load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return load_fail(c, "expected an integer");
    version = json_node_get_int(n);
    if (version < 1)
        return load_fail(c, "expected an integer >= 1");
    if (version > VDC_RESULT_FORMAT_VERSION)
        return load_fail(c, "expected %d or lower, found %" G_GINT64_FORMAT
                         " (written by a newer vmdiskcmp)",
                         VDC_RESULT_FORMAT_VERSION, (gint64)version);
    c->version = version;
    path_pop(c, saved);

    n = json_object_get_member(top, "producer");
    path_push(c, "producer", &saved);
    if (!n)
        return load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return load_fail(c, "expected an object");
    {
        JsonObject *p = json_node_get_object(n);
        const char *names[] = { "name", "version" };
        char **dst[] = { &rs->producer_name, &rs->producer_version };
        int i;

        for (i = 0; i < 2; i++) {
            JsonNode *m = json_object_get_member(p, names[i]);
            gsize s2;

            path_push(c, names[i], &s2);
            if (!m)
                return load_fail(c, "missing");
            if (!JSON_NODE_HOLDS_VALUE(m) || json_node_get_value_type(m) != G_TYPE_STRING)
                return load_fail(c, "expected a string");
            if (load_string(c, json_node_get_string(m), VDC_RESULT_STRING_MAX, dst[i]) < 0)
                return -1;
            path_pop(c, s2);
        }
    }
    path_pop(c, saved);

    n = json_object_get_member(top, "experiment");
    if (n) {
        path_push(c, "experiment", &saved);
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return load_fail(c, "expected an object");
        if (load_fields(c, vdc_experiment_fields, json_node_get_object(n), &rs->experiment) < 0 ||
            load_runs_policy_stop(c, json_node_get_object(n), rs) < 0 ||
            load_array(c, json_node_get_object(n), "levels", 0, load_level, rs) < 0)
            return -1;
        rs->has_experiment = 1;
        path_pop(c, saved);
    }
    if (load_array(c, top, "targets", 0, load_target, rs) < 0)
        return -1;
    return load_array(c, top, "runs", 1, load_run, rs);
}


/* json-glib's parser recurses once per nesting level: a document of
 * 200 000 '[' overflowed the stack (segfault).  A result document is about
 * 6 levels deep; refuse more than VDC_JSON_MAX_DEPTH before parsing.
 * And a string whose JSON text is longer than VDC_JSON_MAX_STRING_TEXT
 * bytes decodes to more than VDC_RESULT_LONG_STRING_MAX bytes (an escape
 * of 6 bytes gives at least 1): refused before the parser copies it (a
 * 100 MB hostname cost 640 MB), whatever member holds it.  And text
 * after the document's closing bracket is refused: json-glib keeps the
 * first of two concatenated documents and drops the second silently; and
 * a string holding \u0000, which would end the C string there.
 * 0, or -1 after vdc_error naming the line. */
#define VDC_JSON_MAX_DEPTH 64
#define VDC_JSON_MAX_STRING_TEXT (6u * VDC_RESULT_LONG_STRING_MAX)

static int
json_too_deep(const char *data, size_t len, const load_ctx *c)
{
    size_t i, depth = 0, start = 0;
    unsigned line = 1;
    int in_string = 0, closed = 0;

    for (i = 0; i < len; i++) {
        char ch = data[i];

        if (ch == '\n')
            line++;
        if (closed && !g_ascii_isspace(ch)) {
            vdc_error("%s:%u: text after the JSON document: expected one document and the end of "
                      "the file", c->name, line);
            return -1;
        }
        if (in_string) {
            if (ch == '\\' && i + 5 < len && !memcmp(data + i + 1, "u0000", 5)) {
                /* json-glib decodes it and the C string ends there: a name
                 * "rand\u0000read" would be read as "rand" */
                vdc_error("%s:%u: a JSON string holding \\u0000: expected text without NUL",
                          c->name, line);
                return -1;
            }
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = 0;
            if (in_string && i - start > VDC_JSON_MAX_STRING_TEXT) {
                vdc_error("%s:%u: a JSON string of more than %u bytes: expected strings of at "
                          "most %d bytes (%d for command lines)", c->name, line,
                          VDC_JSON_MAX_STRING_TEXT, VDC_RESULT_STRING_MAX,
                          VDC_RESULT_LONG_STRING_MAX);
                return -1;
            }
        } else if (ch == '"') {
            in_string = 1;
            start = i;
        } else if (ch == '[' || ch == '{') {
            if (++depth > VDC_JSON_MAX_DEPTH) {
                vdc_error("%s:%u: JSON nested deeper than %d levels: expected a result document",
                          c->name, line, VDC_JSON_MAX_DEPTH);
                return -1;
            }
        } else if ((ch == ']' || ch == '}') && depth) {
            closed = --depth == 0;
        }
    }
    return 0;
}

/* result.h */
char *
vdc_json_error_text(const GError *err, unsigned *line, unsigned *col)
{
    const char *m = err->message, *q;
    GString *out = g_string_new(NULL);
    int off = 0;

    *line = *col = 0;
    /* json-glib says "<data>:LINE:COL: Parse error: ..." */
    if (sscanf(m, "<data>:%u:%u: %n", line, col, &off) == 2 && off > 0)
        m += off;
    else
        *line = *col = 0;
    /* its tokens are quoted `like this': leave them out, and the blank
     * before them */
    while ((q = strchr(m, '`'))) {
        const char *end = strchr(q + 1, '\'');

        if (!end)
            break;
        g_string_append_len(out, m, q - m);
        while (out->len && out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        m = end + 1;
    }
    g_string_append(out, m);
    return g_string_free(out, FALSE);
}

int
vdc_json_depth_ok(const char *data, size_t len, const char *name)
{
    load_ctx c = { .name = name };

    return json_too_deep(data, len, &c) == 0;
}

int
vdc_result_set_load_data(vdc_result_set *rs, const char *data, size_t len,
                         const char *name)
{
    JsonParser *parser = json_parser_new_immutable();
    GError *err = NULL;
    load_ctx c = { .name = name ? name : "(buffer)", .path = g_string_new(NULL),
                   .reps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                   .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
    int rc = -1;

    if (len > G_MAXSSIZE) {
        vdc_error("%s: input too large", c.name);
        goto out;
    }
    if (memchr(data, '\0', len)) {
        vdc_error("%s: expected a JSON document, found a NUL byte (binary data?)", c.name);
        goto out;
    }
    if (json_too_deep(data, len, &c) < 0)
        goto out;
    if (!json_parser_load_from_data(parser, data, (gssize)len, &err)) {
        unsigned line = 0, col = 0;
        g_autofree char *why = vdc_json_error_text(err, &line, &col);

        if (line)
            vdc_error("%s:%u:%u: invalid JSON: %s", c.name, line, col, why);
        else
            vdc_error("%s: invalid JSON: %s", c.name, why);
        g_error_free(err);
        goto out;
    }
    if (!json_parser_get_root(parser)) {
        vdc_error("%s: empty: expected a JSON result document", c.name);
        goto out;
    }
    rc = load_top(&c, json_parser_get_root(parser), rs);
 out:
    if (rc < 0) {
        vdc_result_set_dispose(rs);
        vdc_result_set_init(rs);
    }
    g_string_free(c.path, TRUE);
    g_hash_table_destroy(c.reps);
    g_hash_table_destroy(c.seen);
    g_object_unref(parser);
    return rc;
}

int
vdc_result_set_load_file(vdc_result_set *rs, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    int rc;

    if (vdc_read_input(path, &data, &len) < 0)
        return -1;
    if (!strcmp(path, "-"))
        path = "(stdin)";
    rc = vdc_result_set_load_data(rs, data, len, path);
    g_free(data);
    return rc;
}

/* ---- Writing ------------------------------------------------------------------ */

static JsonObject *
save_fields(const vdc_field *fields, const void *obj)
{
    JsonObject *o = json_object_new();
    const vdc_field *f;
    const char *p;

    for (f = fields; f->name; f++) {
        p = (const char *)obj + f->off;
        switch (f->type) {
        case VDC_F_STR: {
            const char *s = *(char *const *)p;

            if (s)
                json_object_set_string_member(o, f->name, s);
            else if (f->flags & VDC_FF_WRITE_NULL)
                json_object_set_null_member(o, f->name);
            break;
        }
        case VDC_F_INT:
            if (*(const int64_t *)p != VDC_INT_ABSENT)
                json_object_set_int_member(o, f->name, *(const int64_t *)p);
            break;
        case VDC_F_NUM: {
            double d = *(const double *)p;

            if (!vdc_has(d)) {
                if (f->flags & VDC_FF_WRITE_NULL)
                    json_object_set_null_member(o, f->name);
            } else if (d == floor(d) && fabs(d) < 9007199254740992.0) {
                /* integral values print as integers: 6065, not 6065.0 */
                json_object_set_int_member(o, f->name, (gint64)d);
            } else {
                json_object_set_double_member(o, f->name, d);
            }
            break;
        }
        case VDC_F_BOOL:
            if (*(const int *)p != VDC_BOOL_ABSENT)
                json_object_set_boolean_member(o, f->name, *(const int *)p != 0);
            break;
        case VDC_F_FLAG:
            json_object_set_boolean_member(o, f->name, *(const int *)p != 0);
            break;
        case VDC_F_OBJ: {
            JsonObject *sub = save_fields(f->sub, p);

            if (json_object_get_size(sub))
                json_object_set_object_member(o, f->name, sub);
            else
                json_object_unref(sub);
            break;
        }
        }
    }
    return o;
}

/* Member @name of @o as an object: the one the field table wrote, or a
 * new empty one set there.  Borrowed. */
static JsonObject *
member_object(JsonObject *o, const char *name)
{
    JsonObject *m;

    if (json_object_has_member(o, name))
        return json_object_get_object_member(o, name);
    m = json_object_new();
    json_object_set_object_member(o, name, m);
    return m;
}

/* The experiment object, with runs_policy.stop and levels from their
 * records. */
static JsonObject *
experiment_json(const vdc_experiment *e)
{
    JsonObject *o = save_fields(vdc_experiment_fields, e), *rp;
    JsonArray *stop;
    size_t i;

    if (e->n_levels) {
        JsonArray *levels = json_array_new();

        for (i = 0; i < e->n_levels; i++) {
            JsonObject *l = save_fields(vdc_level_record_fields, &e->levels[i]);

            if (e->levels[i].host)
                json_object_set_object_member(l, "host", json_object_ref(e->levels[i].host));
            json_array_add_object_element(levels, l);
        }
        json_object_set_array_member(o, "levels", levels);
    }
    if (!e->runs_policy.n_stop)
        return o;
    rp = member_object(o, "runs_policy");
    stop = json_array_new();
    for (i = 0; i < e->runs_policy.n_stop; i++)
        json_array_add_object_element(stop, save_fields(vdc_stop_record_fields, &e->runs_policy.stop[i]));
    json_object_set_array_member(rp, "stop", stop);
    return o;
}

/* A sample's object, with its workload (iops_series.values by hand). */
static JsonObject *
sample_json(const vdc_sample *s)
{
    JsonObject *o = save_fields(vdc_sample_fields, s), *w, *series;
    JsonArray *values;
    size_t i;

    if (s->host)
        json_object_set_object_member(o, "host", json_object_ref(s->host));
    if (!s->workload)
        return o;
    w = save_fields(vdc_workload_fields, s->workload);
    if (s->workload->iops_values) {
        series = member_object(w, "iops_series");
        values = json_array_new();
        for (i = 0; i < s->workload->n_iops_values; i++)
            json_array_add_double_element(values, s->workload->iops_values[i]);
        json_object_set_array_member(series, "values", values);
    }
    json_object_set_object_member(o, "workload", w);
    return o;
}

/* storage.thin.data_percent and alignment's layers and misaligned of @t
 * into its object @o */
static void
target_arrays_json(JsonObject *o, const vdc_target *t)
{
    size_t i;

    if (t->storage.thin.pool) {
        JsonObject *st = member_object(o, "storage"), *th = member_object(st, "thin");
        JsonArray *pct = json_array_new();

        for (i = 0; i < 2; i++)
            if (isnan(t->storage.thin.data_percent[i]))
                json_array_add_null_element(pct);
            else
                json_array_add_double_element(pct, t->storage.thin.data_percent[i]);
        json_object_set_array_member(th, "data_percent", pct);
    }
    if (t->alignment.n_layers) {
        JsonObject *al = member_object(o, "alignment");
        JsonArray *layers = json_array_new(), *mis = json_array_new();

        for (i = 0; i < t->alignment.n_layers; i++) {
            const vdc_target_align_layer *l = &t->alignment.layers[i];
            JsonObject *lo = json_object_new();

            json_object_set_string_member(lo, "layer", l->layer);
            if (l->offset != VDC_INT_ABSENT)
                json_object_set_int_member(lo, "offset", l->offset);
            if (l->size != VDC_INT_ABSENT)
                json_object_set_int_member(lo, "size", l->size);
            if (l->why) {
                json_object_set_string_member(lo, "why", l->why);
                json_array_add_string_element(mis, l->layer);
            }
            json_array_add_object_element(layers, lo);
        }
        json_object_set_array_member(al, "layers", layers);
        json_object_set_array_member(al, "misaligned", mis);
    }
}

/* A target's object, with placement.ranges from its pairs. */
static JsonObject *
target_json(const vdc_target *t)
{
    JsonObject *o = save_fields(vdc_target_fields, t), *pl;
    JsonArray *ranges;
    size_t i;

    target_arrays_json(o, t);
    if (!t->placement.n_ranges)
        return o;
    pl = member_object(o, "placement");
    ranges = json_array_new();
    for (i = 0; i < t->placement.n_ranges; i++) {
        JsonArray *r = json_array_new();

        json_array_add_int_element(r, t->placement.ranges[2 * i]);
        json_array_add_int_element(r, t->placement.ranges[2 * i + 1]);
        json_array_add_array_element(ranges, r);
    }
    json_object_set_array_member(pl, "ranges", ranges);
    return o;
}

int
vdc_result_set_format_version(const vdc_result_set *rs)
{
    size_t i, j;

    for (i = 0; i < rs->n_runs; i++)
        for (j = 0; j < rs->runs[i]->n_samples; j++) {
            const vdc_test_info *ti = vdc_test_lookup(rs->runs[i]->samples[j]->test);

            if (ti && ti->workload)
                return 2;
        }
    return 1;
}

JsonNode *
vdc_result_set_to_json(const vdc_result_set *rs)
{
    JsonObject *top = json_object_new();
    JsonObject *prod = json_object_new();
    JsonArray *targets, *runs;
    JsonNode *root;
    size_t i, j;

    json_object_set_string_member(top, "format", VDC_RESULT_FORMAT);
    json_object_set_int_member(top, "format_version", vdc_result_set_format_version(rs));
    json_object_set_string_member(prod, "name", rs->producer_name ? rs->producer_name : "vmdiskcmp");
    json_object_set_string_member(prod, "version",
                                  rs->producer_version ? rs->producer_version : PACKAGE_VERSION);
    json_object_set_object_member(top, "producer", prod);
    if (rs->has_experiment)
        json_object_set_object_member(top, "experiment", experiment_json(&rs->experiment));
    if (rs->n_targets) {
        targets = json_array_new();
        for (i = 0; i < rs->n_targets; i++)
            json_array_add_object_element(targets, target_json(rs->targets[i]));
        json_object_set_array_member(top, "targets", targets);
    }
    runs = json_array_new();
    for (i = 0; i < rs->n_runs; i++) {
        JsonObject *ro = save_fields(vdc_run_fields, rs->runs[i]);
        JsonArray *samples = json_array_new();

        if (!json_object_has_member(ro, "metadata"))
            json_object_set_object_member(ro, "metadata", json_object_new());
        for (j = 0; j < rs->runs[i]->n_samples; j++)
            json_array_add_object_element(samples, sample_json(rs->runs[i]->samples[j]));
        if (rs->runs[i]->host)
            json_object_set_object_member(ro, "host", json_object_ref(rs->runs[i]->host));
        json_object_set_array_member(ro, "samples", samples);
        json_array_add_object_element(runs, ro);
    }
    json_object_set_array_member(top, "runs", runs);
    root = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(root, top);
    return root;
}

/* JSON text with the shortest decimal form of each double that reads back
 * to the same value (135.8, not json-glib's 135.80000000000001). */
static void
emit_string(GString *out, const char *s)
{
    char *valid = g_utf8_make_valid(s, -1);
    const char *p;

    g_string_append_c(out, '"');
    for (p = valid; *p; p++) {
        unsigned char ch = (unsigned char)*p;

        switch (ch) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\t': g_string_append(out, "\\t"); break;
        case '\r': g_string_append(out, "\\r"); break;
        default:
            if (ch < 0x20 || ch == 0x7f)
                g_string_append_printf(out, "\\u%04x", ch);
            else
                g_string_append_c(out, (char)ch);
        }
    }
    g_string_append_c(out, '"');
    g_free(valid);
}

static void
emit_double(GString *out, double d)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    int prec;

    if (!isfinite(d)) {   /* JSON has no NaN/Inf: our writers never produce them */
        g_string_append(out, "null");
        return;
    }
    for (prec = 15; prec <= 17; prec++) {
        g_ascii_formatd(buf, sizeof(buf), prec == 15 ? "%.15g" : prec == 16 ? "%.16g" : "%.17g", d);
        if (g_ascii_strtod(buf, NULL) == d)
            break;
    }
    g_string_append(out, buf);
    /* keep it a JSON number that reads back as a double */
    if (!strpbrk(buf, ".eEn"))
        g_string_append(out, ".0");
}

void
vdc_append_double(GString *out, double d)
{
    emit_double(out, d);
}

static void
emit_indent(GString *out, int level)
{
    g_string_append_c(out, '\n');
    for (; level > 0; level--)
        g_string_append(out, "  ");
}

static void
emit_node(GString *out, JsonNode *n, int level)
{
    switch (JSON_NODE_TYPE(n)) {
    case JSON_NODE_NULL:
        g_string_append(out, "null");
        break;
    case JSON_NODE_VALUE: {
        GType t = json_node_get_value_type(n);

        if (t == G_TYPE_INT64)
            g_string_append_printf(out, "%" G_GINT64_FORMAT, json_node_get_int(n));
        else if (t == G_TYPE_DOUBLE)
            emit_double(out, json_node_get_double(n));
        else if (t == G_TYPE_BOOLEAN)
            g_string_append(out, json_node_get_boolean(n) ? "true" : "false");
        else if (t == G_TYPE_STRING)
            emit_string(out, json_node_get_string(n));
        else
            g_string_append(out, "null");
        break;
    }
    case JSON_NODE_ARRAY: {
        JsonArray *a = json_node_get_array(n);
        guint i, len = json_array_get_length(a);

        if (!len) {
            g_string_append(out, "[]");
            break;
        }
        g_string_append_c(out, '[');
        for (i = 0; i < len; i++) {
            emit_indent(out, level + 1);
            emit_node(out, json_array_get_element(a, i), level + 1);
            if (i + 1 < len)
                g_string_append_c(out, ',');
        }
        emit_indent(out, level);
        g_string_append_c(out, ']');
        break;
    }
    case JSON_NODE_OBJECT: {
        JsonObject *o = json_node_get_object(n);
        GList *names = json_object_get_members(o), *l;   /* insertion order */
        int first = 1;

        g_string_append_c(out, '{');
        for (l = names; l; l = l->next) {
            if (!first)
                g_string_append_c(out, ',');
            first = 0;
            emit_indent(out, level + 1);
            emit_string(out, l->data);
            g_string_append(out, ": ");
            emit_node(out, json_object_get_member(o, l->data), level + 1);
        }
        g_list_free(names);
        if (!first)
            emit_indent(out, level);
        g_string_append_c(out, '}');
        break;
    }
    }
}

char *
vdc_json_to_string(JsonNode *root, size_t *len)
{
    GString *out = g_string_new(NULL);

    emit_node(out, root, 0);
    g_string_append_c(out, '\n');
    if (len)
        *len = out->len;
    return g_string_free(out, FALSE);
}

char *
vdc_result_set_to_string(const vdc_result_set *rs, size_t *len)
{
    JsonNode *root = vdc_result_set_to_json(rs);
    char *out = vdc_json_to_string(root, len);

    json_node_unref(root);
    return out;
}

int
vdc_result_set_save(const vdc_result_set *rs, const char *path)
{
    size_t len;
    char *s = vdc_result_set_to_string(rs, &len);
    int rc = 0;

    /* one rule: what we write is what we read */
    {
        g_autofree char *name = g_strdup_printf("%s (as it would be written)", path);
        vdc_result_set back;

        vdc_result_set_init(&back);
        rc = vdc_result_set_load_data(&back, s, len, name);
        vdc_result_set_dispose(&back);
        if (rc < 0) {
            vdc_error("result %s: not written: vmdiskcmp would refuse to read it back "
                      "(the message above)", path);
            g_free(s);
            return -1;
        }
    }
    if (!strcmp(path, "-")) {
        if (fwrite(s, 1, len, stdout) != len || fflush(stdout) != 0) {
            vdc_error("cannot write the result to standard output");
            rc = -1;
        }
    } else {
        rc = vdc_write_file_atomic(path, s, len);
    }
    g_free(s);
    return rc;
}
