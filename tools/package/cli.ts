/**
 * `npm run package [-- --out <dir>]`: builds the deployment package (tools/package/build.ts) into
 * `.package/app` and `.package/app.zip`, prints its size against the limits, and the zip's path
 * last (azure.yaml's `prepackage` hook runs this; azd deploys the folder).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildPackage, PACKAGE_LIMITS } from './build';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
  const built = await buildPackage(values.out ? path.resolve(values.out) : undefined);
  const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const within = built.bytes <= PACKAGE_LIMITS.bytes && built.files <= PACKAGE_LIMITS.files;
  process.stdout.write(
    `Package ${path.relative(process.cwd(), built.dir)}: ${built.files} files, ${mb(built.bytes)}` +
      ` (bundle ${mb(built.bundleBytes)}; limits ${PACKAGE_LIMITS.files} files, ` +
      `${mb(PACKAGE_LIMITS.bytes)}: ${within ? 'within' : 'EXCEEDED'}); zip ${mb(built.zipBytes)}\n`,
  );
  process.stdout.write(`${built.zip}\n`);
  if (!within) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
