/* Where vmdiskcmp's helper binaries are: the static agent and the static
 * in-guest runner (vmdiskcmp-agent, vmdiskcmp-runner), built beside the
 * controller in a build tree (BUILDDIR/guest-agent/NAME), installed in
 * VDC_LIBEXECDIR.  run, prepare and the lab use these. */
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

#endif
