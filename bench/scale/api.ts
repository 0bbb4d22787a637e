/**
 * The HTTP calls of the scale case and the real-size scenario: JSON requests with a hand-made
 * principal (as `npm start` allows on loopback), paging a list to its end, and running an
 * orchestration to its end through `statusUri`. Every call can be aborted, so a step that runs out
 * of time stops issuing requests.
 */
import { adminPrincipal, asPrincipal, telemetryPrincipal } from '../principals';

/** A list page (API.md "Conventions"). */
export interface Page<T> {
  items: T[];
  continuationToken: string | null;
}

/** `GET /orchestrations/{id}`. */
export interface OrchestrationStatus {
  id: string;
  name: string;
  runtimeStatus: string;
  output?: unknown;
  failure?: string;
}

/** An answer other than the expected status. */
export class UnexpectedStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UnexpectedStatusError';
  }
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

export { sleep };

/** The API at `baseUrl` (e.g. `http://localhost:7071/api`). */
export class ScaleApi {
  constructor(
    readonly baseUrl: string,
    /** Extra text for a 5xx error (e.g. the host's output tail). */
    private readonly diagnostics: () => string = () => '',
  ) {}

  /**
   * Sends `method path` as `principal` (admin by default) with an optional JSON body.
   *
   * @throws {UnexpectedStatusError} when the status is not one of `expected`.
   * @throws {Error} when `signal` aborts or the connection fails.
   */
  async call<T>(
    method: string,
    path: string,
    options: { body?: unknown; expected?: number[]; principal?: string; signal?: AbortSignal } = {},
  ): Promise<T> {
    const { body, expected = [200], principal = adminPrincipal, signal } = options;
    const init: RequestInit = { method, signal };
    if (body !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}/${path}`, asPrincipal(principal, init));
    const text = await response.text();
    if (!expected.includes(response.status)) {
      const extra = response.status >= 500 ? `\n${this.diagnostics().slice(-3000)}` : '';
      throw new UnexpectedStatusError(
        response.status,
        `${method} ${path} answered ${response.status}: ${text.slice(0, 300)}${extra}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * Reads every page of the list at `path` with `query`, calling `onPage` for each; returns the
   * number of pages read.
   */
  async pageAll<T>(
    path: string,
    query: Record<string, string>,
    onPage: (items: T[]) => void,
    options: { signal?: AbortSignal; principal?: string } = {},
  ): Promise<number> {
    let token: string | null = null;
    let pages = 0;
    do {
      const params = new URLSearchParams(query);
      if (token !== null) params.set('continuationToken', token);
      const page: Page<T> = await this.call<Page<T>>(
        'GET',
        `${path}?${params.toString()}`,
        options,
      );
      pages += 1;
      onPage(page.items);
      token = page.continuationToken;
    } while (token !== null);
    return pages;
  }

  /**
   * Starts the orchestration at `startPath` (a 202 `{id, statusUri}`) and polls its status every
   * `pollMs` until it has ended (Completed, Failed or Terminated).
   *
   * @throws {Error} when `signal` aborts first (the orchestration itself keeps running).
   */
  async runOrchestration(
    startPath: string,
    options: { body?: unknown; signal?: AbortSignal; pollMs?: number } = {},
  ): Promise<OrchestrationStatus> {
    const { signal, pollMs = 500 } = options;
    const started = await this.call<{ id: string; statusUri: string }>('POST', startPath, {
      body: options.body,
      expected: [202],
      signal,
    });
    const statusPath = started.statusUri.replace(/^\/api\//, '');
    for (;;) {
      const status = await this.call<OrchestrationStatus>('GET', statusPath, { signal });
      if (['Completed', 'Failed', 'Terminated'].includes(status.runtimeStatus)) return status;
      await sleep(pollMs, signal);
    }
  }

  /** `POST /logs` with `entries` of `source`, as a `TelemetryWriter`. */
  async postLogs(source: string, entries: unknown[], signal?: AbortSignal): Promise<void> {
    await this.call('POST', 'logs', {
      body: { source, entries },
      expected: [202],
      principal: telemetryPrincipal,
      signal,
    });
  }
}
