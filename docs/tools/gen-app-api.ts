// docs/app-api.md's reference part: TypeDoc with typedoc-plugin-markdown reads the declarations kit
// ships for `@kit-lang/kit/app` (out/shared/app/index.d.ts, what a project's TypeScript sees) and
// writes one Markdown section per export. Each export's example comes from app-api-examples.ts
// and is added to its comment as an `@example`, so the page shows it under the signature; an
// export without an example stops the generator (a new export cannot ship undocumented), and the
// examples are `ts` blocks that the doc tests type-check like every other.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application, Comment, CommentTag, Converter, type DeclarationReflection, ReflectionKind } from 'typedoc';
import { APP_EXAMPLES } from './app-api-examples.js';
import { repoRoot } from './pages.js';

export const APP_DECLARATIONS = join(repoRoot, 'out', 'shared', 'app', 'index.d.ts');

/** The generated part of docs/app-api.md. */
export async function appApiReference(opts: { requireExamples?: boolean } = {}): Promise<string> {
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
    const missing: string[] = [];
    app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
      const project = context.project;
      for (const child of project.children ?? []) {
        // Members a class inherits from the platform (Error's stack, cause, captureStackTrace) are
        // the platform's to document.
        for (const member of child.children ?? [])
          if (member.inheritedFrom && !member.inheritedFrom.reflection) project.removeReflection(member);
        const example = APP_EXAMPLES[child.name];
        if (!example) {
          missing.push(`${ReflectionKind.singularString(child.kind)} ${child.name}`);
          continue;
        }
        const comment = withComment(child);
        comment.blockTags.push(
          new CommentTag('@example', [{ kind: 'code', text: `\`\`\`ts\n${example.trim()}\n\`\`\`` }]),
        );
      }
    });
    const project = await app.convert();
    if (!project) throw new Error('TypeDoc could not read the declarations of @kit-lang/kit/app');
    if (missing.length && opts.requireExamples !== false)
      throw new Error(
        `exports of @kit-lang/kit/app without an example in docs/tools/app-api-examples.ts: ${missing.join(', ')}`,
      );
    const unknown = Object.keys(APP_EXAMPLES).filter((n) => !project.children?.some((c) => c.name === n));
    if (unknown.length)
      throw new Error(`app-api-examples.ts has examples of names kit does not export: ${unknown.join(', ')}`);
    await app.generateOutputs(project);
    return readFileSync(join(work, 'app-api.md'), 'utf8');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function withComment(r: DeclarationReflection): Comment {
  const holder = r.signatures?.[0] ?? r;
  holder.comment ??= new Comment();
  return holder.comment;
}
