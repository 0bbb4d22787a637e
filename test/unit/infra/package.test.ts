/**
 * The deployment package, as configured (without building it: test/e2e/package/ builds, unpacks
 * and runs it). azure.yaml deploys the folder `npm run package` builds, without a remote build;
 * `.funcignore` (azd reads it, gitignore semantics) leaves out nothing that folder holds; the
 * packages kept out of the bundle are the ones OpenTelemetry patches as they load, and every
 * package the app loads at run time is a dependency, so the bundler finds it installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { EXTERNAL_PACKAGES } from '../../../tools/package/build';
import { readRepoFile, REPO_ROOT } from './bicep';

interface PackageJson {
  main: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const packageJson = JSON.parse(readRepoFile('package.json')) as PackageJson;

/** Every TypeScript file under `dir` (POSIX paths from the project root). */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sources(`${dir}/${entry.name}`)
        : entry.name.endsWith('.ts')
          ? [`${dir}/${entry.name}`]
          : [],
    );
}

/** Bare package names a TypeScript file loads at run time (type-only imports are erased). */
function runtimePackages(source: string): string[] {
  const imports = [
    ...source.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'([^.'][^']*)'/gms),
  ];
  const requires = [...source.matchAll(/\brequire\('([^.'][^']*)'\)/g)];
  return [...imports, ...requires]
    .map((m) => m[1]!)
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0]!,
    );
}

describe('the deployment package (npm run package, zip deploy)', () => {
  it('is built by npm run package and deployed by azd as built, without a remote build', () => {
    expect(packageJson.scripts.package).toBe('node -r @swc-node/register tools/package/cli.ts');
    // No prune step any more: nothing is built on the platform.
    expect(packageJson.scripts['build:azure']).toBeUndefined();
    const azureYaml = readRepoFile('azure.yaml');
    expect(azureYaml).toMatch(/^ {4}remoteBuild: false$/m);
    expect(azureYaml).toMatch(/^ {4}dist: \.package\/app$/m);
    expect(azureYaml).toMatch(/^ {6}prepackage:\n {8}shell: sh\n {8}run: npm run package$/m);
    expect(readRepoFile('.gitignore')).toMatch(/^\.package\/$/m);
    // The bundle is the one file `main` finds in the package (test/e2e/package/ checks it).
    expect(packageJson.main).toBe('dist/functions/*.js');
  });

  it('leaves out nothing the package holds (.funcignore)', () => {
    const funcignore = ignore().add(readRepoFile('.funcignore'));
    const held = [
      'host.json',
      'package.json',
      'dist/functions/app.js',
      'dist/console/index.html',
      ...EXTERNAL_PACKAGES.map((name) => `node_modules/${name}/package.json`),
    ];
    // Relative to the package folder, or to the project root should azd read it from there.
    for (const prefix of ['', '.package/app/']) {
      expect(held.filter((file) => funcignore.ignores(`${prefix}${file}`))).toEqual([]);
    }
    expect(funcignore.ignores('local.settings.json')).toBe(true);
  });

  it('keeps out of the bundle exactly the packages the instrumentations patch on require', () => {
    const hooked = (file: string) =>
      fs.readFileSync(path.join(REPO_ROOT, 'node_modules', file), 'utf8');
    expect(
      hooked('@azure/opentelemetry-instrumentation-azure-sdk/dist/commonjs/instrumentation.js'),
    ).toContain('"@azure/core-tracing"');
    expect(
      hooked(
        '@azure/functions-opentelemetry-instrumentation/dist/azure-functions-instrumentation.js',
      ),
    ).toContain("'@azure/functions'");
    expect([...EXTERNAL_PACKAGES].sort()).toEqual(['@azure/core-tracing', '@azure/functions']);
    for (const name of EXTERNAL_PACKAGES) {
      const resolvable =
        name in packageJson.dependencies ||
        fs.existsSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'));
      expect(`${name}: ${resolvable}`).toBe(`${name}: true`);
    }
  });

  it('loads at run time only packages that are dependencies (installed for the bundler)', () => {
    const dependencies = new Set(Object.keys(packageJson.dependencies));
    const missing = [...sources('functions'), ...sources('src')].flatMap((file) =>
      runtimePackages(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'))
        .filter((name) => !dependencies.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
