/**
 * The first import of every entry point (functions/*.ts; ESLint checks it): starts telemetry
 * before the storage SDKs, `@azure/functions` and `http`/`https` are loaded, so the
 * instrumentations patch them as they load, as the Functions OpenTelemetry guide asks. It imports
 * nothing else that loads them (test/unit/telemetry/startup.test.ts).
 */
import { processTelemetry } from './telemetry';

processTelemetry();
