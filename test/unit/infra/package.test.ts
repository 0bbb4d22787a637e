/**
 * The package `azd deploy` uploads, computed from `.funcignore` the way azd reads it (gitignore
 * semantics, paths from the project root, an ignored folder is not descended into), over the
 * files on disk — node_modules and dist included when they exist. With `remoteBuild: true` the
 * platform installs, builds and prunes, so the package must carry what the build needs (sources,
 * lock file, tsconfig) and nothing the app does not run: no node_modules (every devDependency
 * would ship), no tests, benchmarks, local tools, docs or infra.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readRepoFile, REPO_ROOT } from './bicep';

interface PackageJson {
  main: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const packageJson = JSON.parse(readRepoFile('package.json')) as PackageJson;
const funcignore: Ignore = ignore().add(readRepoFile('.funcignore'));

/** Every file under the project root that the package would hold (POSIX paths). */
function packagedFiles(): string[] {
  const files: string[] = [];
  const walk = (relativeDir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, relativeDir), {
      withFileTypes: true,
    })) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!funcignore.ignores(`${relative}/`)) walk(relative);
      } else if (!funcignore.ignores(relative)) {
        files.push(relative);
      }
    }
  };
  walk('');
  return files.sort();
}

const shipped = packagedFiles();

/** The relative module specifiers a TypeScript file imports or re-exports. */
function relativeImports(source: string): string[] {
  return [...source.matchAll(/(?:from|import|require\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
}

/** Bare package names a TypeScript file loads at run time (type-only imports are erased). */
function runtimePackages(source: string): string[] {
  return [...source.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'([^.'][^']*)'/gms)]
    .map((m) => m[1]!)
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0]!,
    );
}

describe('the deployment package (.funcignore, remote build)', () => {
  it('is built remotely: azure.yaml asks for it and package.json builds, then prunes', () => {
    expect(readRepoFile('azure.yaml')).toMatch(/^ {4}remoteBuild: true$/m);
    // tsc compiles the app; esbuild bundles the web console (console/) into dist/console/.
    expect(packageJson.scripts.build).toBe('tsc -p tsconfig.build.json && node console/build.mjs');
    // Oryx runs `npm run build:azure` after `npm run build` (doc/runtimes/nodejs.md).
    expect(packageJson.scripts['build:azure']).toBe('npm prune --omit=dev');
    expect(packageJson.main).toBe('dist/functions/*.js');
  });

  it('ships no installed package, so no devDependency, and no local build output', () => {
    expect(shipped.filter((file) => /^(node_modules|dist)\//.test(file))).toEqual([]);
    // Also when node_modules is not on disk: every devDependency's folder is ignored.
    const devDependencies = Object.keys(packageJson.devDependencies);
    expect(devDependencies.length).toBeGreaterThan(5);
    expect(
      devDependencies.filter((name) => !funcignore.ignores(`node_modules/${name}/package.json`)),
    ).toEqual([]);
    expect(funcignore.ignores('node_modules/.bin/tsc')).toBe(true);
  });

  it('ships no tests, benchmarks, local tools, docs, infra, settings or tool configuration', () => {
    const unwanted = shipped.filter(
      (file) =>
        /^(test|bench|tools|docs|infra|coverage|\.azurite|\.ci|\.vscode)\//.test(file) ||
        /(^|\/)local\.settings(\.sample)?\.json$/.test(file) ||
        /\.(test|spec)\.ts$/.test(file) ||
        /\.log$/.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it('ships TypeScript only under functions/, src/ and console/, the remote build inputs', () => {
    expect(
      shipped.filter((file) => file.endsWith('.ts') && !/^(functions|src|console)\//.test(file)),
    ).toEqual([]);
    expect(shipped).toEqual(expect.arrayContaining(['console/build.mjs', 'console/index.html']));
  });

  it('ships exactly what the remote build and the host need at the top level', () => {
    const topLevel = [...new Set(shipped.map((file) => file.split('/')[0]!))].sort();
    expect(topLevel).toEqual([
      'console',
      'functions',
      'host.json',
      'package-lock.json',
      'package.json',
      'src',
      'tsconfig.build.json',
      'tsconfig.json',
    ]);
  });

  it('ships every source the build compiles, and they import nothing left out', () => {
    const sources = shipped.filter((file) => file.endsWith('.ts'));
    expect(sources.filter((file) => file.startsWith('functions/')).length).toBeGreaterThan(5);
    const unresolved = sources.flatMap((file) => {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return relativeImports(text).flatMap((specifier) => {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        const candidates = [`${target}.ts`, `${target}/index.ts`, target];
        return candidates.some((candidate) => shipped.includes(candidate))
          ? []
          : [`${file} imports ${specifier}`];
      });
    });
    expect(unresolved).toEqual([]);
  });

  it('loads at run time only packages that survive the prune (dependencies)', () => {
    const dependencies = new Set(Object.keys(packageJson.dependencies));
    // console/ is bundled by the build (before the prune) and never loaded by the host.
    const missing = shipped
      .filter((file) => file.endsWith('.ts') && !file.startsWith('console/'))
      .flatMap((file) =>
        runtimePackages(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'))
          .filter((name) => !dependencies.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(missing).toEqual([]);
  });
});
