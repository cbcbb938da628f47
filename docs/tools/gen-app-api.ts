// docs/app-api.md's reference part: TypeDoc with typedoc-plugin-markdown reads the declarations kit
// ships for `@kit-lang/kit/app` (out/shared/app/index.d.ts, what a project's TypeScript sees) and
// writes one Markdown section per export. Each export's example comes from app-api-examples.ts
// and is added to its comment as an `@example`, so the page shows it under the signature; an
// export without an example stops the generator (a new export cannot ship undocumented), and the
// examples are `ts` blocks that the doc tests type-check like every other.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application, Comment, CommentTag, Converter, type DeclarationReflection } from 'typedoc';
import { APP_EXAMPLES } from './app-api-examples.js';
import { repoRoot } from './pages.js';

export const APP_DECLARATIONS = join(repoRoot, 'out', 'shared', 'app', 'index.d.ts');

/** The generated part of docs/app-api.md. */
export async function appApiReference(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'kit-app-api-'));
  try {
    const tsconfig = join(work, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
          strict: true,
          skipLibCheck: true,
        },
        files: [APP_DECLARATIONS],
      }),
    );
    const app = await Application.bootstrapWithPlugins({
      entryPoints: [APP_DECLARATIONS],
      tsconfig,
      plugin: ['typedoc-plugin-markdown'],
      name: '@kit-lang/kit/app',
      readme: 'none',
      disableSources: true,
      excludeExternals: true,
      excludePrivate: true,
      excludeProtected: true,
      excludeInternal: true,
      sort: ['kind', 'alphabetical'],
      validation: { notExported: false, invalidLink: true, notDocumented: false },
      logLevel: 'Error',
      out: work,
      router: 'module',
      entryFileName: 'app-api.md',
      hidePageHeader: true,
      hideBreadcrumbs: true,
      hidePageTitle: true,
      useCodeBlocks: true,
      parametersFormat: 'table',
      interfacePropertiesFormat: 'table',
      classPropertiesFormat: 'table',
      typeDeclarationFormat: 'table',
      propertyMembersFormat: 'table',
      enumMembersFormat: 'table',
    } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
    app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
      const project = context.project;
      for (const child of project.children ?? []) {
        // Members a class inherits from the platform (Error's stack, cause, captureStackTrace) are
        // the platform's to document.
        for (const member of child.children ?? [])
          if (member.inheritedFrom && !member.inheritedFrom.reflection) project.removeReflection(member);
        const example = APP_EXAMPLES[child.name];
        if (example)
          withComment(child).blockTags.push(
            new CommentTag('@example', [{ kind: 'code', text: `\`\`\`ts\n${example.trim()}\n\`\`\`` }]),
          );
      }
    });
    const project = await app.convert();
    if (!project) throw new Error('TypeDoc could not read the declarations of @kit-lang/kit/app');
    const problems = exampleProblems(
      (project.children ?? []).map((c) => c.name),
      APP_EXAMPLES,
    );
    if (problems.length) throw new Error(`docs/app-api.md cannot be generated:\n  ${problems.join('\n  ')}`);
    await app.generateOutputs(project);
    return readFileSync(join(work, 'app-api.md'), 'utf8');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What keeps the page from being complete: exports without an example, examples of names not exported. */
export function exampleProblems(exported: readonly string[], examples: Readonly<Record<string, string>>): string[] {
  const missing = exported.filter((n) => !examples[n]);
  const unknown = Object.keys(examples).filter((n) => !exported.includes(n));
  return [
    ...missing.map((n) => `${n} is exported without an example (add one to docs/tools/app-api-examples.ts)`),
    ...unknown.map((n) => `app-api-examples.ts has an example of ${n}, which @kit-lang/kit/app does not export`),
  ];
}

function withComment(r: DeclarationReflection): Comment {
  const holder = r.signatures?.[0] ?? r;
  holder.comment ??= new Comment();
  return holder.comment;
}
