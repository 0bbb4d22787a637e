/**
 * `npm run seed`: fills the app that `npm start` runs with a sample organisation (docs/console.md,
 * "Sample data"): eight departments, 284 people with names from many cultures, managers, drawn
 * avatars, reviews, expense claims, message statistics and log lines. Idempotent: run it again
 * and it adds only what is missing.
 *
 *   npm start                      # in one terminal
 *   npm run seed                   # in another (default http://localhost:7071/api)
 *   npm run seed -- --url http://localhost:7080/api
 */
import { parseArgs } from 'node:util';
import { seedDirectory } from './seed/run';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { url: { type: 'string' } }, strict: true });
  const url = (values.url ?? 'http://localhost:7071/api').replace(/\/$/, '');
  process.stdout.write(`Seeding ${url} …\n`);
  const started = Date.now();
  await seedDirectory(url, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `Done in ${Math.round((Date.now() - started) / 1000)} s. Open ${url}/console/ and sign in.\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
