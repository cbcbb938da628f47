// Escaping for text that goes into a log line. Span data is untrusted (names, messages and paths can come
// from requests), so control and line-separator characters are escaped: one record never prints two lines.

const UNSAFE = /[\\\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

function escapeChar(c: string): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = c.charCodeAt(0);
      return code <= 0xff ? '\\x' + code.toString(16).padStart(2, '0') : '\\u' + code.toString(16).padStart(4, '0');
    }
  }
}

/** Escapes backslashes, C0/C1 control characters and U+2028/U+2029 so the text stays on one line. */
export function escapeLogText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}
