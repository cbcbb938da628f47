// Run by retained.e2e.test.ts in a child process with --expose-gc: the heap a workspace keeps after a
// large `.kit` file is read again and again as a whole (a watched file changed on disk, a generator
// writing it), beside its component. Each of its 700 calls passes a prop the component does not
// declare: cross-file diagnostics pointing into the file, which the workspace anchors to its visible
// ranges. Prints the retained heap after 2 and after 70 reads, in MB.
import { Workspace } from '#core/workspace/workspace.js';

function bigPage(sections: number, mark: string): string {
  const lines = ['package site', '', 'page big', 'route "/big"', 'guard public', '', 'view {', '  <main>'];
  for (let i = 0; i < sections; i++)
    lines.push(
      `    <section id="s${i}"><h2>Section ${i}${i === sections >> 1 ? mark : ''}</h2>`,
      `      <Card heading="Card ${i}" tone="calm"><p>Paragraph ${i}</p></Card>`,
      '    </section>',
    );
  lines.push('  </main>', '}', '');
  return lines.join('\n');
}

const gc = (globalThis as { gc?: () => void }).gc!;
const retainedMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const ws = new Workspace({ ssr: true }, '/probe');
ws.setKitFile(
  'card.cmp.kit',
  'package site\n\ncomponent Card\n\nprops {\n  heading string\n}\n\nview {\n  <section><h2>{heading}</h2><slot /></section>\n}\n',
);
const texts = [bigPage(700, ''), bigPage(700, ' x')];
const read = (n: number) => {
  for (let i = 0; i < n; i++) {
    ws.setKitFile('big.kit', texts[i % 2]);
    for (const f of ws.takeAffected()) ws.diagnosticsFor(f);
  }
};
read(2);
const first = retainedMb();
read(68);
const last = retainedMb();
console.log(JSON.stringify({ first, last }));
