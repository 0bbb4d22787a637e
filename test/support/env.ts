import { withoutPlatformMarkers } from '../../tools/host/launch';
// Runs in every test worker before the test file: fast retries so fault tests finish quickly.
process.env.STORAGE_RETRY_DELAY_MS ??= '20';
process.env.STORAGE_MAX_RETRY_DELAY_MS ??= '200';
// The per-try deadline stays at its default (30 s): the shared emulator can stall for seconds under
// a full run, and a shorter deadline would retry non-idempotent creates that did land (409).
// The tests send principal headers by hand, as a developer does locally (docs/security.md).
process.env.TRUST_LOCAL_PRINCIPAL_HEADER ??= 'true';
// A local run is never an Azure instance, whatever the shell carries (this sandbox sets
// CONTAINER_NAME): tests that want Azure's behaviour set the markers themselves.
for (const name of withoutPlatformMarkers(process.env).removed) delete process.env[name];
