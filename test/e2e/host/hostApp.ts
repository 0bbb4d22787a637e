/**
 * Runs the fixture app (test/fixtures/hostapp) on the local host with queue names of its own,
 * and reads the `RECORD {json}` lines its functions log.
 */
import path from 'node:path';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { uniqueName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

export const HOSTAPP_ROOT = path.join(PROJECT_ROOT, 'test/fixtures/hostapp');

export interface HostAppQueues {
  alwaysFail: string;
  failOnce: string;
  echo: string;
  slow: string;
  forwardIn: string;
  forwardOut: string;
}

export interface HostApp {
  host: RunningHost;
  queues: HostAppQueues;
  /** Every record logged so far, optionally only those of one function. */
  records(fn?: string): Array<Record<string, unknown>>;
  /** Waits until `predicate` holds for the records (polling the output). */
  waitForRecords(
    predicate: (records: Array<Record<string, unknown>>) => boolean,
    timeoutMs?: number,
  ): Promise<Array<Record<string, unknown>>>;
}

/** Unique queue names for one fixture host. */
export function hostAppQueues(): HostAppQueues {
  return {
    alwaysFail: uniqueName('fail'),
    failOnce: uniqueName('once'),
    echo: uniqueName('echo'),
    slow: uniqueName('slow'),
    forwardIn: uniqueName('fwdin'),
    forwardOut: uniqueName('fwdout'),
  };
}

/** Parses the `RECORD {json}` lines of host output. */
export function parseRecords(output: string): Array<Record<string, unknown>> {
  return [...output.matchAll(/RECORD (\{.*\})$/gm)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

/**
 * Starts the fixture app.
 *
 * @throws {Error} with the host's output when it refuses to start.
 */
export async function startHostApp(
  env: Record<string, string> = {},
  options: { hostJsonPath?: string } = {},
): Promise<HostApp> {
  const queues = hostAppQueues();
  const host = await startHost({
    appRoot: HOSTAPP_ROOT,
    ...options,
    env: {
      HOSTAPP_ALWAYS_FAIL_QUEUE: queues.alwaysFail,
      HOSTAPP_FAIL_ONCE_QUEUE: queues.failOnce,
      HOSTAPP_ECHO_QUEUE: queues.echo,
      HOSTAPP_SLOW_QUEUE: queues.slow,
      HOSTAPP_FORWARD_IN_QUEUE: queues.forwardIn,
      HOSTAPP_FORWARD_OUT_QUEUE: queues.forwardOut,
      // Once a year: the timer only fires when a test asks it to.
      HOSTAPP_TIMER_SCHEDULE: '0 0 0 1 1 *',
      ...env,
    },
  });
  const records = (fn?: string): Array<Record<string, unknown>> =>
    parseRecords(host.output()).filter((r) => fn === undefined || r.fn === fn);
  return {
    host,
    queues,
    records,
    async waitForRecords(predicate, timeoutMs = WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = records();
        if (predicate(current)) return current;
        if (Date.now() > deadline) {
          throw new Error(
            `Records never matched within ${timeoutMs} ms. Output:\n${host.output()}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
