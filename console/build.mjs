// Builds the web console (console/*.ts, *.html, *.css) into dist/console/ with esbuild: one
// bundled, minified script and one stylesheet (uPlot's included), plus the HTML page. Run by
// `npm run build` (locally and in the platform's remote build) and by the browser tests.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'dist', 'console');

export async function buildConsole() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { app: path.join(here, 'main.ts'), styles: path.join(here, 'styles.css') },
    outdir: out,
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    target: ['es2022'],
    platform: 'browser',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'favicon.svg'])
    fs.copyFileSync(path.join(here, file), path.join(out, file));
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildConsole().then(
    (dir) => console.log(`Console built into ${path.relative(process.cwd(), dir)}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
