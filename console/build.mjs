// Builds the web console (console/*.ts, *.html, *.css) into dist/console/ with esbuild: one
// bundled, minified script and one stylesheet (uPlot's included), plus the HTML page. Run by
// `npm run build` (locally and in the platform's remote build) and by the browser tests.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'dist', 'console');

// `target`: another folder, e.g. the deployment package's dist/console (tools/package).
export async function buildConsole(target = out) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  await build({
    entryPoints: { app: path.join(here, 'main.ts'), styles: path.join(here, 'styles.css') },
    outdir: target,
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    target: ['es2022'],
    platform: 'browser',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'favicon.svg'])
    fs.copyFileSync(path.join(here, file), path.join(target, file));
  return target;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildConsole(process.argv[2] ? path.resolve(process.argv[2]) : out).then(
    (dir) => console.log(`Console built into ${path.relative(process.cwd(), dir)}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
