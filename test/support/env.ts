// Runs in every test worker before the test file: fast retries so fault tests finish quickly.
process.env.STORAGE_RETRY_DELAY_MS ??= '20';
process.env.STORAGE_MAX_RETRY_DELAY_MS ??= '200';
process.env.STORAGE_TRY_TIMEOUT_MS ??= '5000';
// The tests send principal headers by hand, as a developer does locally (docs/security.md).
process.env.TRUST_LOCAL_PRINCIPAL_HEADER ??= 'true';
