// Random edits for the property tests: inserts, deletes and replacements biased towards the
// characters and words that change how a `.kit` file splits (braces, quotes, newlines, keywords).
import fc from 'fast-check';

export interface Edit {
  /** Position as a fraction of the text length, so an edit fits any text. */
  at: number;
  /** Moves the position to the start or the end of its line: chunk boundaries live there. */
  snap: 'none' | 'lineStart' | 'inFirstWord' | 'lineEnd';
  del: number;
  insert: string;
}

const interesting = [
  '{',
  '}',
  '"',
  '\\',
  '\n',
  '\r\n',
  '\r',
  '}\n',
  '{\n',
  ' ',
  '\t',
  'view {\n',
  'view {',
  'act ',
  'api ',
  'route "/x"\n',
  'fragment F GET "/f" "#t" {\n',
  'paths {\n',
  'server {\n',
  'go server {\n',
  'style {\n',
  'props {\n',
  '  => { a: "b" }\n',
  '<div>',
  '</div>',
  '<p>',
  '</p>',
  '<br>',
  '/>',
  '//',
  '// c\n',
  '/*',
  '*/',
  "'",
  '<!--',
  '-->',
  '{x}',
  '{a.b}',
  '{param("s")}',
  '{#if x}',
  '@',
  'é',
  '🚀',
  'Café ',
  '=>',
  ',',
  ':',
  '=',
  'guard public\n',
];

export const editArb: fc.Arbitrary<Edit> = fc.record({
  // Uniform over the text (fast-check's doubles favour 0 and 1, which would mostly edit the ends).
  at: fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((n) => n / 1_000_000),
  snap: fc.constantFrom('none', 'lineStart', 'inFirstWord', 'lineEnd'),
  del: fc.oneof(fc.constant(0), fc.nat({ max: 4 }), fc.nat({ max: 40 })),
  insert: fc.oneof(fc.constantFrom(...interesting), fc.string({ maxLength: 6 }), fc.constant('')),
});

export function applyEdit(text: string, e: Edit): string {
  let at = Math.min(text.length, Math.floor(e.at * (text.length + 1)));
  if (e.snap === 'lineStart' || e.snap === 'inFirstWord') {
    while (at > 0 && text[at - 1] !== '\n' && text[at - 1] !== '\r') at--;
    if (e.snap === 'inFirstWord' && at + 1 < text.length && /[a-z]/.test(text[at + 1])) at++;
  } else if (e.snap === 'lineEnd') {
    while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at++;
  }
  const end = Math.min(text.length, at + e.del);
  return text.slice(0, at) + e.insert + text.slice(end);
}
