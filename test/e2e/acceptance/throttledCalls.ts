/**
 * The client side of the throttled tour (throttledEverything.test.ts): every answer the app gives
 * is recorded with the operation it came from, and a call a client would repeat after a 503 is
 * repeated, waiting the answer's `Retry-After` (capped, to keep the test short) — as API.md asks
 * callers to do. What was acknowledged is what the test later finds in storage.
 */
import { send, type Reply, type SendOptions } from './client';

/** One answer of the app, with the operation (OpenAPI `operationId`) that gave it. */
export interface Answer {
  operation: string;
  status: number;
  retryAfter: string | null;
  /** The error's `code`, for an error answer. */
  code?: string;
}

/** Longest wait honoured between two tries of one call, in ms (the test's time, not the app's). */
const MAX_WAIT_MS = 1_500;
/**
 * Tries of one call before the test gives up on it (it then fails: never acknowledged), up to
 * about 150 s: the largest transaction of the hot partition (the manager's) can be refused for as
 * long as the other lanes keep that partition at its target, and gets through once they finish
 * (a CI run saw it refused 40 times in a row, over the whole tour).
 */
const MAX_TRIES = 100;

/** Sends requests to one host, recording every answer. */
export class RecordingClient {
  readonly answers: Answer[] = [];

  constructor(private readonly baseUrl: string) {}

  /** One request: its answer is recorded under `operation`. */
  async once(
    operation: string,
    method: string,
    path: string,
    options: SendOptions = {},
  ): Promise<Reply> {
    const reply = await send(this.baseUrl, method, path, options);
    this.answers.push({
      operation,
      status: reply.status,
      retryAfter: reply.headers.get('retry-after'),
      code: (reply.body as { error?: { code?: string } } | undefined)?.error?.code,
    });
    return reply;
  }

  /**
   * The request, repeated while the app answers 503 (each answer recorded); the first other answer.
   *
   * @throws {Error} when every one of {@link MAX_TRIES} tries was refused.
   */
  async persist(
    operation: string,
    method: string,
    path: string,
    options: SendOptions = {},
  ): Promise<Reply> {
    for (let n = 1; n <= MAX_TRIES; n++) {
      const reply = await this.once(operation, method, path, options);
      if (reply.status !== 503) return reply;
      await waitRetryAfter(reply.headers.get('retry-after'));
    }
    const codes = JSON.stringify(
      statusCounts(this.answers.filter((a) => a.operation === operation)),
    );
    throw new Error(
      `${operation} ${method} ${path}: still 503 after ${MAX_TRIES} tries (${codes}).`,
    );
  }

  /** The operations that answered at least once. */
  operations(): Set<string> {
    return new Set(this.answers.map((answer) => answer.operation));
  }
}

/** Waits a 503's `Retry-After` (seconds), capped at {@link MAX_WAIT_MS}; 250 ms without one. */
export async function waitRetryAfter(retryAfter: string | null): Promise<void> {
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 250;
  await new Promise((resolve) => setTimeout(resolve, Math.min(ms, MAX_WAIT_MS)));
}

/** Repeats a raw storage call (a SAS upload) while storage answers 503; the first other status. */
export async function persistFetch(url: string, init: RequestInit): Promise<Response> {
  for (let n = 1; n <= MAX_TRIES; n++) {
    const response = await fetch(url, init);
    if (response.status !== 503) return response;
    await response.arrayBuffer();
    await waitRetryAfter(response.headers.get('retry-after'));
  }
  throw new Error(`${init.method ?? 'GET'} ${url}: still 503 after ${MAX_TRIES} tries.`);
}

/** Counts of answers by status (and error code), for the test's report. */
export function statusCounts(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, code } of answers) {
    const key = code === undefined ? String(status) : `${status} ${code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
