// Shared by the report tests: the CLI run in-process, golden files, and the published JSON Schemas.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { runCli } from '#cli/run.js';
import { fixture, repoRoot } from '#test/helpers/repo.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runKit(argv: string[], cwd: string = repoRoot): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd,
  });
  return { code, stdout, stderr };
}

/** `KIT_UPDATE_GOLDENS=1 npm test` rewrites the golden files instead of comparing (review the diff). */
export const UPDATE_GOLDENS = process.env.KIT_UPDATE_GOLDENS === '1';

export function expectGolden(rel: string, actual: string): void {
  const path = fixture('reports', 'golden', rel);
  const shown = `test/fixtures/reports/golden/${rel}`;
  if (UPDATE_GOLDENS) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(
    existsSync(path),
    `golden file ${shown} is missing; create it with KIT_UPDATE_GOLDENS=1 npm test and review it`,
  );
  const expected = readFileSync(path, 'utf8');
  if (actual !== expected) {
    assert.equal(
      actual,
      expected,
      `output differs from ${shown}; if the change is intended, regenerate with KIT_UPDATE_GOLDENS=1 npm test and review git diff`,
    );
  }
}

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map<string, ValidateFunction>();

/** Validator of `schemas/<name>.schema.json`. */
export function schema(name: string): ValidateFunction {
  let v = validators.get(name);
  if (!v) {
    const json = JSON.parse(readFileSync(join(repoRoot, 'schemas', `${name}.schema.json`), 'utf8')) as object;
    v = ajv.compile(json);
    validators.set(name, v);
  }
  return v;
}

export function assertValid(name: string, value: unknown, what: string): void {
  const v = schema(name);
  if (!v(value))
    assert.fail(
      `${what} does not match schemas/${name}.schema.json:\n${JSON.stringify(v.errors?.slice(0, 5), null, 2)}`,
    );
}
