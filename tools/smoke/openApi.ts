/** Validating the deployed app's OpenAPI document (the smoke check `openapi`). */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { clip } from './http';

/**
 * Validates an OpenAPI document with @seriousme/openapi-schema-validator, an ES module, in a child
 * Node process (a CommonJS module, and Jest's sandbox, cannot import it directly).
 *
 * @returns the validator's errors, or `undefined` when the document is valid.
 * @throws {Error} when the validator is not installed, does not finish in time or fails.
 */
export async function validateOpenApi(
  document: unknown,
  timeoutMs: number,
): Promise<string | undefined> {
  let entry: string;
  try {
    entry = require.resolve('@seriousme/openapi-schema-validator');
  } catch {
    throw new Error(
      'the OpenAPI validator (@seriousme/openapi-schema-validator, a devDependency) is not installed: run npm ci',
    );
  }
  const script = `
    import { Validator } from ${JSON.stringify(pathToFileURL(entry).href)};
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const result = await new Validator().validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify(document));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve([c, s]));
    },
  );
  if (signal) throw new Error(`the OpenAPI validator did not finish within ${timeoutMs} ms`);
  if (code !== 0) throw new Error(`the OpenAPI validator failed: ${clip(stderr)}`);
  const result = JSON.parse(stdout) as { valid: boolean; errors?: unknown };
  return result.valid ? undefined : clip(JSON.stringify(result.errors ?? 'invalid'));
}
