// The float64 route param accepts exactly what Go's strconv.ParseFloat(s, 64) accepts, so a route
// that worked in the original system decodes the same way here:
//   - decimal: [sign] digits [. digits] [e [sign] digits], with at least one mantissa digit
//     ("1.", ".5" and "1e5" are fine; ".", "e5" and "1e" are not);
//   - hexadecimal: [sign] 0x mantissa p [sign] digits, the binary exponent being mandatory;
//   - inf / infinity (any case, optional sign) and nan (any case, no sign);
//   - underscores only between digits, or between a base prefix and a digit (Go's underscoreOK).
// Out of range (rounds to ±Inf) is an error, as Go's ErrRange; underflow rounds to zero as in Go.
// JavaScript's Number() and Go both round correctly, so decimal values agree bit for bit.

// Written so that no two quantifiers can share a character: the value comes from the request,
// and `[0-9]+\.?[0-9]*` would backtrack quadratically on a long run of digits followed by junk.
const DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const HEX = /^([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/;
const INFINITY = /^(?:inf|infinity)$/i;
const NAN = /^nan$/i;

export function parseGoFloat(s: string): number | undefined {
  if (s === '') return undefined;
  const first = s.charCodeAt(0);
  const signed = first === 43 /* + */ || first === 45 /* - */;
  const sign = first === 45 ? -1 : 1;
  const unsigned = signed ? s.slice(1) : s;
  if (INFINITY.test(unsigned)) return sign * Infinity;
  if (!signed && NAN.test(s)) return NaN;

  let body = unsigned;
  if (s.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    body = unsigned.replaceAll('_', '');
  }
  let value: number | undefined;
  if (body.length > 2 && body[0] === '0' && (body[1] === 'x' || body[1] === 'X')) value = parseHex(body.slice(2));
  else if (DECIMAL.test(body)) value = Number(body);
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return sign * value;
}

/** Go's rule: an underscore must sit between digits, or between a base prefix and a digit. */
function underscoreOK(input: string): boolean {
  let s = input;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0') {
    const p = s[1].toLowerCase();
    if (p === 'b' || p === 'o' || p === 'x') {
      i = 2;
      saw = '0';
      hex = p === 'x';
    }
  }
  for (; i < s.length; i++) {
    const c = s[i];
    const lower = c.toLowerCase();
    if ((c >= '0' && c <= '9') || (hex && lower >= 'a' && lower <= 'f' && lower.length === 1)) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

function parseHex(text: string): number | undefined {
  const m = HEX.exec(text);
  if (!m) return undefined;
  const intDigits = m[1];
  const fracDigits = m[2] ?? '';
  if (intDigits.length + fracDigits.length === 0) return undefined;
  const mantissa = BigInt('0x' + intDigits + fracDigits);
  // A huge written exponent only decides between zero and overflow; clamp it to keep numbers small.
  const written = Math.max(-100000, Math.min(100000, Number(m[3])));
  return scaleByPowerOfTwo(mantissa, written - 4 * fracDigits.length);
}

/** Correctly rounded (ties to even) value of `mantissa * 2^exponent`. */
function scaleByPowerOfTwo(mantissa: bigint, exponent: number): number {
  if (mantissa === 0n) return 0;
  const bits = mantissa.toString(2).length;
  const top = bits - 1 + exponent; // exponent of the leading bit
  if (top > 1024) return Infinity;
  if (top < -1076) return 0;
  if (top >= -1022) {
    // Normal result: keep 64 bits plus a sticky bit, let Number() round once, then scale exactly.
    let m = mantissa;
    let e = exponent;
    if (bits > 64) {
      const drop = BigInt(bits - 64);
      const sticky = (m & ((1n << drop) - 1n)) !== 0n ? 1n : 0n;
      m = (m >> drop) | sticky;
      e += bits - 64;
    }
    const half = Math.trunc(e / 2);
    return Number(m) * 2 ** half * 2 ** (e - half);
  }
  // Subnormal result: round to a multiple of 2^-1074 in integer arithmetic.
  const shift = -1074 - exponent;
  if (shift <= 0) return Number(mantissa << BigInt(-shift)) * 2 ** -1074;
  const s = BigInt(shift);
  let q = mantissa >> s;
  const r = mantissa - (q << s);
  const halfway = 1n << (s - 1n);
  if (r > halfway || (r === halfway && (q & 1n) === 1n)) q += 1n;
  return Number(q) * 2 ** -1074;
}
