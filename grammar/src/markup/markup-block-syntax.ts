// What kit says instead of a foreign template block (`{#if}`, `{@html}`, `{#each}` ...): the kit
// way to write it. Read in content and inside quoted attribute values alike.

/** What kit says instead of foreign template blocks. */
export function blockSyntaxMessage(image: string): string {
  const m = /^\{([#\/:@])\s*([A-Za-z]*)/.exec(image);
  const sigil = m ? m[1] : '';
  const word = m ? m[2] : '';
  const shown = '`' + image.replace(/\s+/g, ' ').slice(0, 40) + '`';
  if (sigil === '@' && word === 'html')
    return (
      `${shown} is not supported: kit escapes every interpolation, and raw HTML (\`g:unsafe-html\`) is not ` +
      `supported either`
    );
  if (sigil === '@' && word === 'const')
    return `${shown} is not supported: compute the value in the server load (\`server {}\`) or pass it as a prop`;
  if (sigil === '@' && word === 'debug') return `${shown} is not supported`;
  if (word === 'each' || word === 'for')
    return `${shown} is not supported: repeat an element with \`g:for={item in items}\` and \`g:lane="server"\``;
  if (word === 'snippet' || word === 'render')
    return `${shown} is not supported: use a component or a named \`<slot>\``;
  if (word === 'await' || word === 'then' || word === 'catch') return `${shown} is not supported by kit`;
  return (
    `${shown} is not supported: show an element conditionally with \`g:if={condition}\` and ` +
    `\`g:lane="server"\`, repeat it with \`g:for={item in items}\``
  );
}
