/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/common/escape.c: the one escaping of outside text for
 * stderr and the text/Markdown reports, and vdc_error's use of it. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"
#include "test_stderr.h"

static void
check(const char *in, gssize len, size_t max, const char *want)
{
    char *got = vdc_escape_text(in, len, max);

    assert_string_equal(got, want);
    g_free(got);
}

/* ESC, the rest of C0, DEL: visible; the escape sequence stays readable */
static void
test_escape_c0(void **state)
{
    check("\x1b[2J\x1b[1;1Hvmdiskcmp: [progress] done", -1, 0,
          "\\x1b[2J\\x1b[1;1Hvmdiskcmp: [progress] done");
    check("a\nb\rc\td", -1, 0, "a\\nb\\rc\\td");
    check("\x01\x07\x08\x7f", -1, 0, "\\x01\\x07\\x08\\x7f");
    check("nul\0inside", 10, 0, "nul\\x00inside");
}

/* C1 controls (CSI U+009B opens an escape sequence on some terminals) and
 * the bidirectional overrides and line separators of Unicode: visible */
static void
test_escape_c1_bidi(void **state)
{
    check("\xc2\x9b" "2J", -1, 0, "\\u009b2J");
    check("\xc2\x85", -1, 0, "\\u0085");
    check("abc\xe2\x80\xae" "fdp.exe", -1, 0, "abc\\u202efdp.exe");
    check("\xe2\x80\xa8\xe2\x81\xa6", -1, 0, "\\u2028\\u2066");
}

/* printable UTF-8 and the backslash pass; bytes that are not UTF-8 do not */
static void
test_escape_utf8(void **state)
{
    check("caf\xc3\xa9 \xe2\x80\xa0 \xf0\x9f\x92\xbe ok\\", -1, 0,
          "caf\xc3\xa9 \xe2\x80\xa0 \xf0\x9f\x92\xbe ok\\");
    check("\xff\xfe bin \xc3", -1, 0, "\\xff\\xfe bin \\xc3");
    check("\xc0\xaf", -1, 0, "\\xc0\\xaf");        /* overlong '/' */
    check(NULL, -1, 0, "");
}

/* a cut never splits an escape or a character; the marker says how much */
static void
test_escape_truncated(void **state)
{
    check("abcdef", -1, 4, "abcd ... (2 more bytes)");
    check("ab\x1b" "cd", -1, 5, "ab ... (3 more bytes)");   /* \x1b needs 4 */
    check("a\xc3\xa9z", -1, 2, "a ... (3 more bytes)");
    check("abc", -1, 3, "abc");
}

/* vdc_error: one line, nothing raw, cut at VDC_MESSAGE_MAX; and the last
 * message is kept for the caller that records it */
static void
test_error_message_escaped(void **state)
{
    char *big = g_malloc(100000);
    char *err;

    memset(big, '\x1b', 99999);
    big[99999] = '\0';
    capture_stderr_begin();
    vdc_error("runner said: %s", "\x1b[2J\nvmdiskcmp: [progress] done: forged");
    vdc_error("manifest: %s", big);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "vmdiskcmp: runner said: \\x1b[2J\\nvmdiskcmp: [progress] done: forged\n"));
    assert_null(strchr(err, '\x1b'));
    /* two messages, two lines; the second cut */
    assert_int_equal(strchr(strchr(err, '\n') + 1, '\n')[1], '\0');
    assert_true(strlen(err) < VDC_MESSAGE_MAX + 200);
    assert_non_null(strstr(err, " more bytes)\n"));
    assert_non_null(strstr(vdc_escape_last_message(), "manifest: \\x1b\\x1b"));
    free(err);
    g_free(big);
    vdc_error_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_c0),
        cmocka_unit_test(test_escape_c1_bidi),
        cmocka_unit_test(test_escape_utf8),
        cmocka_unit_test(test_escape_truncated),
        cmocka_unit_test(test_error_message_escaped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
