// Chevrotain's first-character optimisation cannot analyse complement classes (`[^<{]`), so such
// tokens list their possible first characters explicitly. Characters above 255 share buckets of 255
// codes, so one representative per bucket is enough.

/** Start-character hint covering every UTF-16 code unit except the given ASCII characters. */
export function startCharsExcept(excluded: string): number[] {
  const out: number[] = [];
  for (let c = 0; c < 256; c++) if (!excluded.includes(String.fromCharCode(c))) out.push(c);
  for (let c = 256; c < 65536; c += 255) out.push(c);
  out.push(65535);
  return out;
}
