/**
 * No route of the built app shadows another in Azure. The Functions host tries HTTP routes in the
 * order of their functions' names (ignoring case), first match wins, and passes over a route whose
 * methods do not include the request's (docs/local-host.md "What it mirrors"). This loads `dist/functions`
 * as the worker does, with no host, and routes every HTTP function's own sample path, for each of
 * its methods, through the local host's route table, which follows that order: each must reach
 * the function itself, never the catch-all fallback nor another function.
 */
import { execFileSync } from 'node:child_process';
import type { FunctionMetadata } from '../../../tools/host/core/types';
import { describeFunction, type HostFunction } from '../../../tools/host/functions';
import { createHttpDriver, compareFunctionNames } from '../../../tools/host/http/httpDriver';
import { parseRouteTemplate, type ParameterPart } from '../../../tools/host/http/routeTemplate';
import { createLogger } from '../../../tools/host/log';
import type { FunctionRunner } from '../../../tools/host/runner';
import { PROJECT_ROOT } from '../../support/host';
import { FALLBACK_FUNCTION_NAME } from '../../../functions/shared/route';

/**
 * Loads the built app in a process of its own, as the worker does (Node's loader, the host's
 * `@azure/functions-core`), and prints what it registered.
 */
const LOAD_APP = `
const { createCoreApi, installCoreModule } = require('./tools/host/core/coreModule');
const { FunctionAppRegistry } = require('./tools/host/core/registry');
const { loadEntryPoints } = require('./tools/host/load/entryPoints');
const registry = new FunctionAppRegistry();
installCoreModule(createCoreApi(registry, () => undefined));
loadEntryPoints(process.cwd(), 'dist/functions/*.js', registry);
process.stdout.write('\\nMETADATA ' + JSON.stringify(registry.functions().map((f) => f.metadata)) + '\\n');
process.exit(0);
`;

/** The built app's HTTP functions, as the worker registers them. */
function loadHttpFunctions(): HostFunction[] {
  const output = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', LOAD_APP], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, APPLICATIONINSIGHTS_CONNECTION_STRING: '' },
  });
  const line = output.split('\n').find((l) => l.startsWith('METADATA '));
  const metadata = JSON.parse(line!.slice('METADATA '.length)) as FunctionMetadata[];
  return metadata
    .map((m) => describeFunction({ metadata: m, callback: () => undefined }))
    .filter((fn) => fn.triggerType === 'httptrigger');
}

/** A value the parameter takes that no literal segment of the app equals. */
function sampleValue(part: ParameterPart): string {
  const candidates = part.catchAll ? ['ada@contoso.com', 'x/y'] : ['Sample7', '000123', '2026'];
  const value = candidates.find((v) => part.constraints.every((c) => c.test(v)));
  if (!value) throw new Error(`No sample value satisfies the constraints of {${part.name}}.`);
  return value;
}

/** A path the function's own route takes. */
function samplePath(fn: HostFunction): string {
  const route = String(fn.trigger.binding.route ?? fn.name);
  return parseRouteTemplate(route)
    .segments.map((segment) => {
      const [only, ...more] = segment.parts;
      if (more.length > 0 || !only) throw new Error(`Complex segment in ${route}: add a sample.`);
      return only.kind === 'literal' ? only.text : sampleValue(only);
    })
    .join('/');
}

const functions = loadHttpFunctions();
const driver = createHttpDriver({
  routePrefix: 'api',
  runner: {} as FunctionRunner,
  logger: createLogger({ level: 'none' }),
});
for (const fn of functions) driver.add(fn);

const cases = functions.flatMap((fn) =>
  (fn.trigger.binding.methods as string[]).map((method) => ({
    name: fn.name,
    method: method.toUpperCase(),
    path: samplePath(fn),
  })),
);

test('the built app registers its HTTP functions, the fallback among them', () => {
  expect(functions.length).toBeGreaterThan(40);
  expect(functions.map((fn) => fn.name)).toContain(FALLBACK_FUNCTION_NAME);
});

test('the fallback sorts after every other HTTP function, as the host orders them', () => {
  const names = functions.map((fn) => fn.name).sort(compareFunctionNames);
  expect(names.at(-1)).toBe(FALLBACK_FUNCTION_NAME);
});

test.each(cases)('$method /api/$path reaches $name', ({ name, method, path: samplePath }) => {
  const found = driver.lookup(method, samplePath);
  expect(found.kind === 'match' ? found.route.fn.name : found.kind).toBe(name);
});

test('a path no route takes reaches the fallback, for every method it answers', () => {
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    const found = driver.lookup(method, 'no/such/route');
    expect(found.kind === 'match' ? found.route.fn.name : found.kind).toBe(FALLBACK_FUNCTION_NAME);
  }
});
