/**
 * A durable runtime on the shared Azurite with its own task hub, its HTTP API on a local server,
 * and the fixture app's functions registered — what the local host does, minus everything else.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  createDurableRuntime,
  type DurableRuntime,
  type DurableTuning,
} from '../../../../../tools/durable';
import {
  invokeDurable,
  invokeHttpWithClient,
  registerDurableFunctions,
  type HttpResult,
} from '../../../../fixtures/durableapp/harness/durableApp';
import type { CoreShim } from '../../../../fixtures/durableapp/harness/functionsCore';
import { testClients } from '../../../../support/storage';
import { WAIT_MS } from '../../../../support/waits';

/** Fast polling and short leases, so crash tests do not wait long. */
export const TEST_TUNING: Partial<DurableTuning> = {
  leaseSeconds: 3,
  minPollIntervalMs: 20,
  maxPollIntervalMs: 200,
};

export interface TestRuntime {
  runtime: DurableRuntime;
  taskHub: string;
  /** `http://127.0.0.1:<port>` of the server that serves the durable API. */
  origin: string;
  logs: unknown[][];
  /** Calls the fixture's HTTP starter (`POST /api/durable/{orchestrator}`). */
  startViaStarter(orchestrator: string, input?: unknown, instanceId?: string): Promise<HttpResult>;
  stop(): Promise<void>;
}

/** A unique task hub name (letters and digits). */
export function uniqueTaskHub(): string {
  return `Hub${randomBytes(5).toString('hex')}`;
}

/** Starts a runtime for `shim`'s app on `taskHub` (new hub by default). */
export async function startTestRuntime(
  shim: CoreShim,
  options: { taskHub?: string; tuning?: Partial<DurableTuning>; connectionString?: string } = {},
): Promise<TestRuntime> {
  const taskHub = options.taskHub ?? uniqueTaskHub();
  const logs: unknown[][] = [];
  let origin = '';
  const runtime = createDurableRuntime({
    storage: testClients(options.connectionString),
    taskHub,
    hostBaseUrl: () => origin,
    invoke: (name, value, kind) => invokeDurable(shim, name, value, kind),
    log: (...args) => logs.push(args),
    tuning: { ...TEST_TUNING, ...options.tuning },
  });
  const server = http.createServer((req, res) => {
    void runtime.handleHttp(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registerDurableFunctions(shim, runtime);
  try {
    await runtime.start();
  } catch (error) {
    // Refused (e.g. beside a real task hub): nothing is left listening.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  return {
    runtime,
    taskHub,
    origin,
    logs,
    startViaStarter: (orchestrator, input, instanceId) =>
      invokeHttpWithClient(shim, runtime, 'StartDurable', {
        method: 'POST',
        url: `${origin}/api/durable/${orchestrator}${instanceId ? `?instanceId=${encodeURIComponent(instanceId)}` : ''}`,
        body: input === undefined ? undefined : JSON.stringify(input),
        params: { orchestrator },
      }),
    async stop() {
      await runtime.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface StatusBody {
  name: string;
  instanceId: string;
  runtimeStatus: string;
  input: unknown;
  output: unknown;
  customStatus: unknown;
  createdTime: string;
  lastUpdatedTime: string;
  historyEvents?: Array<Record<string, unknown>>;
}

/**
 * Polls a status URL until the instance has ended (or `timeoutMs` passes).
 *
 * @throws {Error} with the last status when it does not end in time.
 */
export async function waitForEnd(
  statusUrl: string,
  timeoutMs = WAIT_MS,
): Promise<{ httpStatus: number; body: StatusBody }> {
  const deadline = Date.now() + timeoutMs;
  let last: { httpStatus: number; body: StatusBody } | undefined;
  while (Date.now() < deadline) {
    const response = await fetch(statusUrl);
    last = { httpStatus: response.status, body: (await response.json()) as StatusBody };
    if (['Completed', 'Failed', 'Terminated'].includes(last.body.runtimeStatus)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `The instance did not end within ${timeoutMs} ms; last status ${JSON.stringify(last)}.`,
  );
}
