/**
 * The deployment package: exactly the folder that runs in Azure, zipped for zip deploy without a
 * remote build (docs/deploy.md, "Packaging"). The 22 function files and every pure-JavaScript
 * dependency are bundled by esbuild into one `dist/functions/app.js` (one module graph, so one
 * telemetry start and one set of clients, as when the files load one after another); the
 * packages OpenTelemetry patches as they are required stay real modules in `node_modules/`
 * (EXTERNAL_PACKAGES), with the console's files, host.json and a package.json whose `main` finds
 * the bundle.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { filesUnder, zipFolder } from './zip';

/** The project's root: above tools/package/ (from source) or dist/tools/package/ (built). */
const PROJECT_ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
  }
  return dir;
})();

/**
 * Loaded from `node_modules/` at run time, never bundled: `@azure/functions` (the Functions
 * instrumentation patches it when it is required, and the worker hands it `@azure/functions-core`)
 * and `@azure/core-tracing` (the Azure SDK instrumentation patches it so storage calls become
 * spans). `http`/`https`, patched the same way, are Node's own.
 */
export const EXTERNAL_PACKAGES = ['@azure/functions', '@azure/core-tracing'];

/** The limits issue 44 sets for the package. */
export const PACKAGE_LIMITS = { bytes: 60 * 1024 * 1024, files: 5_000 };

/** What {@link buildPackage} made. */
export interface BuiltPackage {
  /** The folder (what runs in Azure). */
  dir: string;
  /** The zip of that folder (what is deployed). */
  zip: string;
  /** Files and bytes of the folder. */
  files: number;
  bytes: number;
  zipBytes: number;
  /** Bytes of the bundle. */
  bundleBytes: number;
}

/**
 * Bare imports resolved as `require` calls, as the unbundled app (tsc's CommonJS) resolves them:
 * one CommonJS copy of each package, not an ES module copy beside the CommonJS one that
 * `require`-ing packages get.
 */
const requireResolution: Plugin = {
  name: 'require-resolution',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'import-statement' || args.pluginData === 'as-require') return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: 'require-call',
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'as-require',
      });
      return resolved.errors.length > 0 ? undefined : resolved;
    });
  },
};

/** Bundles functions/*.ts (in file order, as the worker loads them) into `outfile`. */
async function bundle(outfile: string): Promise<number> {
  const entries = fs
    .readdirSync(path.join(PROJECT_ROOT, 'functions'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const result = await build({
    stdin: {
      contents: entries.map((file) => `import './functions/${file.slice(0, -3)}';`).join('\n'),
      resolveDir: PROJECT_ROOT,
      sourcefile: 'app.ts',
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: [...EXTERNAL_PACKAGES, '@azure/functions-core'],
    plugins: [requireResolution],
    minifyWhitespace: true,
    legalComments: 'eof',
    logLevel: 'error',
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed: ${result.errors[0]!.text}`);
  return fs.statSync(outfile).size;
}

/**
 * `name`'s folder as Node finds it from the folder `from` (its own node_modules, then each
 * parent's; not through `exports`, which need not export package.json).
 *
 * @throws {Error} when it is not installed.
 */
function packageFolder(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (from ${from})`);
  }
}

/**
 * Copies the external packages and their dependencies (flat, as npm installs them) into
 * `node_modules/`, leaving out type declarations and source maps.
 *
 * @returns their names and versions (the package.json `dependencies`).
 * @throws {Error} when two versions of one dependency would be needed.
 */
function copyExternals(target: string): Record<string, string> {
  const versions = new Map<string, string>();
  const pending = EXTERNAL_PACKAGES.map((name) => ({ name, from: PROJECT_ROOT }));
  while (pending.length > 0) {
    const { name, from } = pending.shift()!;
    const source = packageFolder(name, from);
    const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as {
      version: string;
      dependencies?: Record<string, string>;
    };
    const known = versions.get(name);
    if (known !== undefined) {
      if (known !== manifest.version) throw new Error(`${name}: ${known} and ${manifest.version}`);
      continue;
    }
    versions.set(name, manifest.version);
    fs.cpSync(source, path.join(target, 'node_modules', name), {
      recursive: true,
      filter: (file) =>
        !/(\.d\.[cm]?ts|\.map)$/.test(file) && path.basename(file) !== 'node_modules',
    });
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      pending.push({ name: dependency, from: source });
    }
  }
  return Object.fromEntries([...versions].filter(([name]) => EXTERNAL_PACKAGES.includes(name)));
}

/** package.json of the package: the project's identity and engines, `main`, the externals. */
function writeManifest(target: string, dependencies: Record<string, string>): void {
  const project = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    description: string;
    main: string;
    engines: Record<string, string>;
  };
  const manifest = {
    name: project.name,
    version: project.version,
    private: true,
    description: project.description,
    main: project.main,
    engines: project.engines,
    dependencies,
  };
  fs.writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Builds the package into `<outDir>/app` and `<outDir>/app.zip` (both replaced).
 *
 * @throws {Error} when the bundle, the console build or a copy fails.
 */
export async function buildPackage(
  outDir = path.join(PROJECT_ROOT, '.package'),
): Promise<BuiltPackage> {
  const dir = path.join(outDir, 'app');
  const zip = path.join(outDir, 'app.zip');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const bundleBytes = await bundle(path.join(dir, 'dist', 'functions', 'app.js'));
  const console = spawnSync(
    process.execPath,
    [path.join(PROJECT_ROOT, 'console', 'build.mjs'), path.join(dir, 'dist', 'console')],
    { cwd: PROJECT_ROOT, encoding: 'utf8' },
  );
  if (console.status !== 0) throw new Error(`The console build failed: ${console.stderr}`);
  fs.copyFileSync(path.join(PROJECT_ROOT, 'host.json'), path.join(dir, 'host.json'));
  writeManifest(dir, copyExternals(dir));
  zipFolder(dir, zip);
  const files = filesUnder(dir);
  return {
    dir,
    zip,
    files: files.length,
    bytes: files.reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0),
    zipBytes: fs.statSync(zip).size,
    bundleBytes,
  };
}
