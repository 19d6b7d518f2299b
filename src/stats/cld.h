/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compact letter display: items (targets of one test, best first) in
 * groups that cannot be told apart, a letter per group, an item in every
 * group it belongs to ("a", "ab", "b").  Two items that share a letter are
 * not significantly different; two that share none are.  The
 * insert-absorb algorithm of Piepho (2004), "An algorithm for a
 * letter-based representation of all-pairwise comparisons", J. Comput.
 * Graph. Stat. 13(2): 456-466.  Pure. */
#ifndef VDC_STATS_CLD_H
#define VDC_STATS_CLD_H

#include <stddef.h>

#define VDC_CLD_ITEMS_MAX 32    /* items one display can hold */
#define VDC_CLD_LETTERS_MAX 26  /* groups (a to z) */

/* The letters of @k items (0 .. k-1, best first) from @differ, a k x k
 * matrix (row-major; differ[i * k + j] != 0: i and j differ significantly;
 * only i < j is read): letters[i] gets item i's letters, a NUL-terminated
 * string of at least one letter, the groups lettered a, b, c... in the
 * order of their best item.  0, or -1 (nothing written) when @k is 0 or
 * above VDC_CLD_ITEMS_MAX or the display would need more than 26 letters. */
int vdc_stats_cld(size_t k, const unsigned char *differ, char (*letters)[VDC_CLD_LETTERS_MAX + 1]);

#endif
