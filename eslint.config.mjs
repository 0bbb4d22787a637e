// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (DESIGN.md "Where code lives"): nothing that runs in Azure imports the local
// tooling, and the domain knows nothing of HTTP or triggers.
const layerPatterns = [
  {
    group: ['**/tools/**', '**/test/**', '**/bench/**'],
    message: 'Code that runs in Azure never imports tools/, test/ or bench/.',
  },
  {
    group: ['**/functions/**'],
    message: 'src/ knows nothing of HTTP or triggers: it never imports functions/.',
  },
];
const directorySurface = {
  group: ['**/directory/*'],
  message: 'Import the directory through its surface, src/directory/index.ts.',
};

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
        { object: 'process', property: 'env', message: 'Read settings through src/config.ts.' },
      ],
    },
  },
  {
    // A file of src/ stays readable in one sitting: past 400 lines it splits by concern.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // The config module, the local host, the launchers and the test/bench harnesses are the
    // only places that may touch the environment.
    files: ['src/config.ts', 'tools/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The app registers HTTP functions only through functions/shared/route.ts, so no route can
    // exist without an access rule (the fixture apps of the host's own tests are not the app).
    files: ['functions/**/*.ts', 'src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='app'][callee.property.name='http']",
          message:
            'Register HTTP functions with protectedRoute or publicRoute (functions/shared/route.ts): every route declares who may call it.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'functions/**/*.ts'],
    ignores: ['src/storage/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...layerPatterns, directorySurface] }],
    },
  },
  {
    // Photos own photo names, the locator and the read grant; SAS issuance uses them (src/sas
    // imports src/photos), never the reverse: the two folders once imported each other.
    files: ['src/photos/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerPatterns,
            directorySurface,
            {
              group: ['**/sas', '**/sas/**'],
              message:
                'src/photos never imports src/sas (SAS issuance uses photos, not the reverse); the blob signer is src/storage/blobSas.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Storage is the bottom layer: it may use only the error types and the configuration.
    files: ['src/storage/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../errors', '!../config'],
              message:
                'src/storage/ never imports the domain (only src/errors.ts and src/config.ts).',
            },
            {
              group: ['**/tools/**', '**/functions/**'],
              message: 'src/storage/ never imports functions/ or tools/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The key families (src/storage/keys/) are pure: their siblings and the error types only.
    files: ['src/storage/keys/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./errors$)',
              message: 'src/storage/keys/ imports only its own files and src/errors.ts.',
            },
          ],
        },
      ],
    },
  },
);
