// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (docs/architecture.md "Layers and lint surfaces"): nothing that runs in Azure
// imports the local tooling, and the domain knows nothing of HTTP or triggers.
const noTooling = {
  group: ['**/tools/**', '**/test/**', '**/bench/**'],
  message: 'Code that runs in Azure (and the console) never imports tools/, test/ or bench/.',
};
const noFunctions = {
  group: ['**/functions/**'],
  message: 'src/ knows nothing of HTTP or triggers: it never imports functions/.',
};
/**
 * The directory is imported through its surface, src/directory/index.ts; `named` lists the
 * narrower named surfaces beside it that a folder may use too (entities: the stored shapes, for
 * the workers that read the table beside the directory; departments: the listing they keep;
 * moveWrites: the move's own writes; validation: the request schemas the adapters use).
 */
const directorySurface = (...named) => ({
  group: ['**/directory/*', ...named.map((entry) => `!**/directory/${entry}`)],
  message:
    'Import the directory through its surface, src/directory/index.ts' +
    (named.length ? ` (or here: ${named.map((entry) => `directory/${entry}`).join(', ')}).` : '.'),
});
/**
 * A capability without named surfaces (indexing, logs) is imported through its entry,
 * src/<name>/index.ts; its sub-folders' files stay closed to the folders outside.
 */
const capabilitySurface = (name) => ({
  group: [`**/${name}/*`, `**/${name}/*/**`],
  message: `Import src/${name} through its surface, src/${name}/index.ts.`,
});
const capabilities = [capabilitySurface('indexing'), capabilitySurface('logs')];
const noSas = {
  group: ['**/sas', '**/sas/**'],
  message:
    'src/photos never imports src/sas (SAS issuance uses photos, not the reverse); the blob signer is src/storage/blobSas.ts.',
};
const onlyRoutes = {
  selector: "CallExpression[callee.object.name='app'][callee.property.name='http']",
  message:
    'Register HTTP functions with protectedRoute or publicRoute (functions/shared/route.ts): every route declares who may call it.',
};
const startupFirst = {
  selector: "Program > :first-child:not(ImportDeclaration[source.value='./shared/startup'])",
  message:
    "An entry point starts with `import './shared/startup';`: telemetry starts before the SDKs and http/https load (functions/shared/startup.ts).",
};
const noLocator = {
  selector: "CallExpression[callee.name='services']",
  message:
    "An adapter receives what it uses: a route's `uses` option (functions/shared/route.ts), a trigger's `withServices` (functions/shared/services.ts); it never calls `services()` itself.",
};
/**
 * A retry timeout hangs an orchestration in Azure once it passes (durable-js#629): DurableTask.Core
 * stops retrying without the timer durable-functions waits for. The local runtime refuses it too.
 */
const noRetryTimeout = {
  selector:
    "MemberExpression[property.name='retryTimeoutInMilliseconds'], Property[key.name='retryTimeoutInMilliseconds']",
  message:
    'Do not set RetryOptions.retryTimeoutInMilliseconds: in Azure the orchestration hangs Running once it passes (Azure/azure-functions-durable-js#629). Bound retries with maxNumberOfAttempts.',
};
const noTestsFromTools = {
  group: ['**/test/**', '**/bench/**'],
  message: 'tools/ never imports test/ or bench/.',
};
/** One `no-restricted-imports` rule (a later block's replaces an earlier one's for its files). */
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** src/storage/ files at `up` below src/: only the error types and the configuration of src/. */
const storageLayer = (files, up) => ({
  files: [files],
  rules: restrictImports(
    {
      group: [`${up}*`, `!${up}domainErrors`, `!${up}config`],
      message:
        'src/storage/ never imports the domain (only src/domainErrors.ts and src/config/index.ts).',
    },
    {
      group: ['**/tools/**', '**/functions/**'],
      message: 'src/storage/ never imports functions/ or tools/.',
    },
  ),
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.azurite/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings through src/config/index.ts.',
        },
      ],
    },
  },
  {
    // A file of src/, tools/ or console/ stays readable in one sitting: past 400 lines it splits
    // by concern.
    files: ['src/**/*.ts', 'tools/**/*.ts', 'console/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // A function reads in one sitting: past 80 lines (blank lines and comments aside) it splits
    // into named steps by concern. Test suites are left out: their describe blocks group cases.
    files: [
      'src/**/*.ts',
      'functions/**/*.ts',
      'tools/**/*.ts',
      'console/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The config module, the local host, the launchers and the test/bench harnesses are the
    // only places that may touch the environment.
    files: ['src/config/index.ts', 'tools/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The app registers HTTP functions only through functions/shared/route.ts, so no route can
    // exist without an access rule (the fixture apps of the host's own tests are not the app).
    files: ['functions/**/*.ts', 'src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', onlyRoutes, noRetryTimeout] },
  },
  {
    // An entry point's first statement starts telemetry, before anything it instruments loads.
    // It receives its capabilities rather than looking them up (docs/architecture.md).
    files: ['functions/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', onlyRoutes, startupFirst, noLocator, noRetryTimeout],
    },
  },
  {
    files: ['src/**/*.ts', 'functions/**/*.ts'],
    ignores: ['src/storage/**'],
    rules: restrictImports(noTooling, noFunctions, directorySurface(), ...capabilities),
  },
  {
    // The adapters validate request bodies with the directory's schemas.
    files: ['functions/**/*.ts'],
    rules: restrictImports(noTooling, noFunctions, directorySurface('validation'), ...capabilities),
  },
  {
    // The workers that read the Employees table beside the directory's services use its stored
    // shapes and keep its department listing; the move orchestration also runs the directory's
    // steps itself.
    files: ['src/indexing/**/*.ts', 'src/archive/**/*.ts', 'src/orchestrations/**/*.ts'],
    rules: restrictImports(
      noTooling,
      noFunctions,
      directorySurface('entities', 'departments'),
      ...capabilities,
    ),
  },
  {
    files: ['src/orchestrations/move/**/*.ts'],
    rules: restrictImports(
      noTooling,
      noFunctions,
      directorySurface('entities', 'departments', 'moveWrites'),
      ...capabilities,
    ),
  },
  {
    // Photos own photo names, the locator and the read grant; SAS issuance uses them (src/sas
    // imports src/photos), never the reverse: the two folders once imported each other.
    files: ['src/photos/**/*.ts'],
    rules: restrictImports(
      noTooling,
      noFunctions,
      directorySurface('entities'),
      noSas,
      ...capabilities,
    ),
  },
  {
    // The bench seeds tables in bulk through the stored shapes, and otherwise uses the app's
    // entry points like everyone else.
    files: ['bench/**/*.ts'],
    rules: restrictImports(directorySurface('entities')),
  },
  {
    // The local tooling serves the app; it never reaches into the tests or the bench, and takes
    // product code only through tools/product.ts, so the stand-ins never share the app's bugs.
    files: ['tools/**/*.ts'],
    ignores: ['tools/product.ts'],
    rules: restrictImports(noTestsFromTools, {
      group: ['**/src', '**/src/**', '**/functions/**'],
      message:
        'tools/ takes product code (src/, functions/) only through tools/product.ts (docs/local-host.md).',
    }),
  },
  {
    files: ['tools/product.ts'],
    rules: restrictImports(noTestsFromTools, noFunctions, directorySurface()),
  },
  {
    // The console is bundled for the browser: pure modules of src/ only, never the host's code
    // (of the directory, the email rule it shares with the API).
    files: ['console/**/*.ts'],
    rules: restrictImports(noTooling, noFunctions, directorySurface('emailRule')),
  },
  // Storage is the bottom layer: it may use only the error types and the configuration.
  storageLayer('src/storage/*.ts', '../'),
  storageLayer('src/storage/tables/*.ts', '../../'),
  {
    // The key families (src/storage/keys/) are pure: their siblings and the error types only.
    files: ['src/storage/keys/*.ts'],
    rules: restrictImports({
      regex: '^\\.\\./(?!\\.\\./domainErrors$)',
      message: 'src/storage/keys/ imports only its own files and src/domainErrors.ts.',
    }),
  },
  {
    files: ['src/storage/keys/*/*.ts'],
    rules: restrictImports({
      regex: '^\\.\\./\\.\\./(?!\\.\\./domainErrors$)',
      message: 'src/storage/keys/ imports only its own files and src/domainErrors.ts.',
    }),
  },
);
