/**
 * The composition root: every service the function adapters and the orchestration activities
 * use, built once per process from the configuration (src/config/index.ts) and the storage
 * clients. Nothing else in the app keeps a process-wide service; `src/` only defines them.
 *
 * Each capability has its builder in `composition/` (the foundation — configuration, clients,
 * account layer, metrics — then indexing, directory, photos, signing and SAS, per-employee records,
 * logins, logs, orchestrations, accounts, operations); this file only wires them. Each part is
 * built on its first use and then kept; a part whose setting cannot be used throws
 * `SettingUnavailableError` (the adapter answers 503), is not kept, and leaves every other part
 * alone. Tests build services directly with the same factories over their own tables.
 */
import type { InvocationContext } from '@azure/functions';
import { getConfig, readPlatformAuth, type Config } from '../../src/config';
import { principalTrust, type PrincipalTrust } from '../../src/identity/trust';
import { accountServices, type AccountServices } from './composition/accounts';
import { directoryServices, type DirectoryServices } from './composition/directory';
import { employeeRecordServices, type EmployeeRecordServices } from './composition/employeeRecords';
import { createFoundation, lazy, type FoundationServices } from './composition/foundation';
import { indexingServices, type IndexingServices } from './composition/indexing';
import { loginServices, type LoginServices } from './composition/logins';
import { logServices, type LogServices } from './composition/logs';
import { operationServices, type OperationServices } from './composition/operations';
import { orchestrationServices, type OrchestrationParts } from './composition/orchestrations';
import { photoServices, type PhotoServices } from './composition/photos';
import { signingServices, type SasServices } from './composition/signing';

/** Everything the adapters and activities use; each getter builds its part on first use. */
export interface Services
  extends
    FoundationServices,
    AccountServices,
    DirectoryServices,
    IndexingServices,
    OrchestrationParts,
    PhotoServices,
    SasServices,
    EmployeeRecordServices,
    LogServices,
    OperationServices {
  /** Whether the principal header is believed (Azure: only with App Service authentication). */
  principalTrust(): PrincipalTrust;
  logins(): LoginServices;
}

/**
 * Builds the services over a configuration (default: the process's, src/config/index.ts).
 * Nothing is built until first asked for.
 */
export function createServices(readConfig: () => Config = getConfig): Services {
  const base = createFoundation(readConfig);
  const signing = signingServices(base);
  // The drains remove the photos of employees they find gone; photos need the directory, whose
  // writes publish to the indexes' sink: the one cycle, closed by a call made only on first use.
  const indexing = indexingServices(base, (department) => photos.photosFor(department));
  const directory = directoryServices(base, indexing);
  const photos = photoServices(base, { directory, indexing, signing });
  return {
    config: base.config,
    clients: base.clients,
    accounts: base.accounts,
    placement: base.placement,
    metrics: base.metrics,
    principalTrust: lazy(() => principalTrust(readPlatformAuth())),
    ...accountServices(base),
    directory: directory.directory,
    archive: directory.archive,
    archiveRequests: directory.archiveRequests,
    ...indexing,
    ...orchestrationServices(base, indexing),
    ...photos,
    sas: signing.sas,
    ...employeeRecordServices(base, directory),
    ...loginServices(base),
    ...logServices(base),
    ...operationServices(base),
  };
}

let processServices: Services | undefined;

/** The process's services (built part by part on first use). */
export function services(): Services {
  processServices ??= createServices();
  return processServices;
}

/**
 * A trigger's handler given what it uses from the process's services (a timer, a queue trigger, an
 * activity), resolved on each invocation as a route's `uses` is (route.ts), so a setting fixed
 * meanwhile or a test's {@link resetServices} takes effect. Adapters never call `services()`.
 *
 * @returns the handler the host (or a test) invokes with the trigger's input and context.
 * @throws whatever `uses` or the handler throws.
 */
export function withServices<U, T, R>(
  uses: (services: Services) => U,
  handler: (use: U, trigger: T, context: InvocationContext) => Promise<R>,
): (trigger: T, context: InvocationContext) => Promise<R> {
  return (trigger, context) => handler(uses(services()), trigger, context);
}

/** Forgets every built service (tests and benches that change the configuration). */
export function resetServices(): void {
  processServices = undefined;
}
