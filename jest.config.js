// Three suites share one Azurite started by the global setup: unit (pure code, no I/O),
// integration (services against real Azurite) and e2e (HTTP and triggers through the local host).
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  transform,
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/env.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
  transform,
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
  reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
  // A hang detector, not a speed goal: several times the slowest test seen on a loaded 2-core
  // machine. Waits for eventual work inside tests are shorter (test/support/waits.ts, 2 min), so
  // they fail first and say what never happened. Tests that run longer by design set their own.
  testTimeout: 180_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
};
