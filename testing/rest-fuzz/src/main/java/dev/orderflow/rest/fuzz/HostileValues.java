package dev.orderflow.rest.fuzz;

import java.util.List;

/** Values clients should not send, grouped by what they attack. */
public final class HostileValues {

    /** SQL injection and script text; valid as free text, must never reach SQL or HTML unescaped. */
    public static final List<String> SQL_AND_SCRIPT = List.of(
            "' OR '1'='1",
            "'; DROP TABLE orders; --",
            "\"; DELETE FROM orders WHERE 1=1; --",
            "1; UPDATE stock SET available=0",
            "' UNION SELECT id, customer_id FROM orders --",
            "admin'/*",
            "%' AND SLEEP(5) AND '%'='",
            "\\'; SHUTDOWN; --",
            "<script>alert(1)</script>",
            "\"><img src=x onerror=alert(1)>",
            "${jndi:ldap://127.0.0.1:1/a}",
            "#{7*7}",
            "{{7*7}}",
            "../../../../etc/passwd",
            "%00",
            "$(rm -rf /)",
            "`id`");

    /** Unicode edge cases: NUL and controls, bidi overrides, emoji, combining marks, BOM, zero-width. */
    public static final List<String> UNICODE = List.of(
            "a\u0000b",
            "\u0000",
            "tab\there\nnewline\rcr",
            "\u0007\u001b[31mred",
            "\u202Eevil\u202C",
            "\u200F\u05E9\u05DC\u05D5\u05DD",
            "\u0627\u0644\u0639\u0631\u0628\u064A\u0629",
            "\uD83D\uDE00\uD83D\uDC4D\uD83C\uDFFD",
            "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67",
            "e\u0301\u0301\u0301\u0301\u0301",
            "Z\u0351\u036B\u0343\u036A\u0302\u036B\u033D\u034F\u0334",
            "\uFEFFbom",
            "zero\u200Bwidth",
            "\u2028\u2029",
            "\uFFFD\uFFFF",
            "\u00C5\u212B",
            "\u65E5\u672C\u8A9E",
            "\uDBFF\uDFFF");

    /** Lone surrogates: not well-formed UTF-16, cannot be encoded in UTF-8. */
    public static final List<String> LONE_SURROGATES = List.of("x\uD800", "\uDC00y", "\uDBFF");

    /**
     * JSON numbers out of every sane range (each text exactly as sent): beyond a long, or with
     * more decimals than any money or quantity field takes.
     */
    public static final List<String> HUGE_NUMBERS = List.of(
            "1e400", "-1e400", "123456789012345678901234567890123456789", "-99999999999999999999",
            "9223372036854775808", "1E-400", "0.0000000000000000000000001");

    /** Invalid UTF-8 byte sequences. */
    public static final List<byte[]> INVALID_UTF8 = List.of(
            new byte[] {(byte) 0xC3, (byte) 0x28},
            new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            new byte[] {(byte) 0xC0, (byte) 0xAF},
            new byte[] {(byte) 0xE2, (byte) 0x82});

    private HostileValues() {
    }
}
