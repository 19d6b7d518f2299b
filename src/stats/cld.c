/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compact letter display by insert-absorb (cld.h). */
#include "config.h"
#include "stats/cld.h"

#include <stdint.h>
#include <string.h>

/* The groups at most: each split adds one before absorption removes
 * what another holds */
#define COLS_MAX 512

/* Absorb: drop a column that another holds entirely (or equals, keeping
 * the first). */
static size_t
absorb(uint32_t *col, size_t n)
{
    size_t i, j, out = 0;

    for (i = 0; i < n; i++) {
        int held = 0;

        for (j = 0; j < n && !held; j++)
            if (j != i && (col[i] & col[j]) == col[i] && (col[i] != col[j] || j < i))
                held = 1;
        if (!held)
            col[out++] = col[i];
    }
    return out;
}

/* the lowest item of a column: its best */
static unsigned
first_item(uint32_t c)
{
    unsigned i = 0;

    while (!(c & 1u)) {
        c >>= 1;
        i++;
    }
    return i;
}

int
vdc_stats_cld(size_t k, const unsigned char *differ, char (*letters)[VDC_CLD_LETTERS_MAX + 1])
{
    uint32_t col[COLS_MAX], next[COLS_MAX];
    size_t n = 1, i, j, c, m;

    if (!k || k > VDC_CLD_ITEMS_MAX)
        return -1;
    col[0] = k == 32 ? UINT32_MAX : (1u << k) - 1;
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) {
            uint32_t both = (1u << i) | (1u << j);

            if (!differ[i * k + j])
                continue;
            /* insert: a column holding both splits into one without each */
            for (c = m = 0; c < n; c++) {
                if ((col[c] & both) != both) {
                    next[m++] = col[c];
                    continue;
                }
                if (m + 2 > COLS_MAX)
                    return -1;
                next[m++] = col[c] & ~(1u << i);
                next[m++] = col[c] & ~(1u << j);
            }
            n = absorb(next, m);
            memcpy(col, next, n * sizeof(*col));
        }
    if (n > VDC_CLD_LETTERS_MAX)
        return -1;
    /* letters in the order of each group's best item (then its next) */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && (first_item(col[j]) < first_item(col[j - 1]) ||
                              (first_item(col[j]) == first_item(col[j - 1]) && col[j] > col[j - 1])); j--) {
            uint32_t t = col[j];

            col[j] = col[j - 1];
            col[j - 1] = t;
        }
    for (i = 0; i < k; i++) {
        size_t len = 0;

        for (c = 0; c < n; c++)
            if (col[c] & (1u << i))
                letters[i][len++] = (char)('a' + c);
        letters[i][len] = '\0';
    }
    return 0;
}
