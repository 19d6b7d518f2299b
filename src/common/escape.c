/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Escaping of outside text for terminals and text reports (escape.h). */
#include "config.h"
#include "common/escape.h"

#include <string.h>

/* Format characters and invisible separators that can make a line read
 * other than it is (Unicode bidirectional controls, line separators). */
static int
is_invisible_control(gunichar c)
{
    return (c >= 0x80 && c <= 0x9f) ||            /* C1 */
           c == 0x2028 || c == 0x2029 ||          /* line, paragraph separator */
           c == 0x200e || c == 0x200f ||          /* LRM, RLM */
           (c >= 0x202a && c <= 0x202e) ||        /* LRE .. RLO */
           (c >= 0x2066 && c <= 0x2069);          /* LRI .. PDI */
}

/* escape.h */
void
vdc_escape_append(GString *out, const char *s, gssize len, size_t max)
{
    size_t n, i = 0, added = 0;

    if (!s)
        return;
    n = len < 0 ? strlen(s) : (size_t)len;
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        char piece[16];
        size_t plen, used = 1;
        const char *src = piece;

        if (ch == '\n' || ch == '\r' || ch == '\t') {
            piece[0] = '\\';
            piece[1] = ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't';
            plen = 2;
        } else if (ch < 0x20 || ch == 0x7f) {
            plen = (size_t)g_snprintf(piece, sizeof(piece), "\\x%02x", ch);
        } else if (ch < 0x80) {
            src = s + i;
            plen = 1;
        } else {
            gunichar c = g_utf8_get_char_validated(s + i, (gssize)(n - i));

            if (c == (gunichar)-1 || c == (gunichar)-2) {
                plen = (size_t)g_snprintf(piece, sizeof(piece), "\\x%02x", ch);
            } else {
                used = (size_t)g_unichar_to_utf8(c, NULL);
                if (is_invisible_control(c)) {
                    plen = (size_t)g_snprintf(piece, sizeof(piece), "\\u%04x", (unsigned)c);
                } else {
                    src = s + i;
                    plen = used;
                }
            }
        }
        if (max && added + plen > max)
            break;
        g_string_append_len(out, src, (gssize)plen);
        added += plen;
        i += used;
    }
    if (i < n)
        g_string_append_printf(out, " ... (%zu more bytes)", n - i);
}

/* escape.h */
char *
vdc_escape_text(const char *s, gssize len, size_t max)
{
    GString *out = g_string_new(NULL);

    vdc_escape_append(out, s, len, max);
    return g_string_free(out, FALSE);
}

/* escape.h */
void
vdc_escape_line(GString *out, const char *s)
{
    vdc_escape_append(out, s, -1, 0);
}

static char *last_message;

/* escape.h */
void
vdc_escape_vprint(FILE *fp, const char *fmt, va_list ap)
{
    char *msg = g_strdup_vprintf(fmt, ap);
    GString *out = g_string_new(NULL);

    vdc_escape_append(out, msg, -1, VDC_MESSAGE_MAX);
    fwrite(out->str, 1, out->len, fp);
    g_free(last_message);
    last_message = g_string_free(out, FALSE);
    g_free(msg);
}

/* escape.h */
const char *
vdc_escape_last_message(void)
{
    return last_message ? last_message : "";
}
