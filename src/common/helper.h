/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where vmdiskcmp's helper binaries are: the static agent and the static
 * in-guest runner (vmdiskcmp-agent, vmdiskcmp-runner), built beside the
 * controller in a build tree (BUILDDIR/guest-agent/NAME), installed in
 * VDC_LIBEXECDIR; and the default guest template, likewise (build tree or
 * VDC_DATADIR/guest).  run, prepare and the lab use these. */
#ifndef VDC_COMMON_HELPER_H
#define VDC_COMMON_HELPER_H

/* The helper @name beside the vmdiskcmp executable @exe in a build tree
 * (EXE = BUILDDIR/src/vmdiskcmp -> BUILDDIR/guest-agent/NAME), when that is
 * a regular file.  Returns a new string (g_free), or NULL. */
char *vdc_helper_beside(const char *exe, const char *name);

/* Where a helper is found when no option names it: beside this vmdiskcmp
 * (/proc/self/exe) in a build tree, else installed in VDC_LIBEXECDIR.
 * Returns a new string (g_free): the first that exists, else the installed
 * path (the caller's check then names it). */
char *vdc_default_helper(const char *name);

/* The installed guest template (`make install`, from `make guest-template`). */
#define VDC_INSTALLED_GUEST_TEMPLATE VDC_DATADIR "/guest/guest.img"

/* The guest template `run` uses when no --guest-image names one: a build
 * tree's BUILDDIR/guest-template/guest.img beside @exe (EXE =
 * BUILDDIR/src/vmdiskcmp), else the installed VDC_INSTALLED_GUEST_TEMPLATE;
 * each only when it and its manifest (IMG.manifest) are regular files.
 * Returns a new string (g_free), or NULL when there is neither; *@where
 * (g_free) names what was looked for, for a refusal. */
char *vdc_default_guest_template(const char *exe, char **where);

#endif
