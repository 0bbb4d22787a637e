/**
 * Helpers of the conformance suite: start an orchestration through the durable HTTP API, read its
 * status with history, wait for a condition.
 */
import type { TestRuntime, StatusBody } from '../support/testRuntime';

/** Long enough for any step on a busy machine; the old runtime fails by assertion, not time. */
export const STEP_MS = 20_000;

/** Starts `name` as instance `id` with `input`; resolves the status URL. */
export async function start(
  test: TestRuntime,
  name: string,
  id: string,
  input: unknown,
): Promise<string> {
  const response = await fetch(
    `${test.origin}/runtime/webhooks/durabletask/orchestrators/${name}/${id}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    },
  );
  if (response.status !== 202) throw new Error(`Start answered ${response.status}.`);
  return `${test.origin}/runtime/webhooks/durabletask/instances/${id}?taskHub=${test.taskHub}`;
}

/** The instance's status with its history (event types by name). */
export async function statusWithHistory(statusUrl: string): Promise<StatusBody> {
  const response = await fetch(`${statusUrl}&showHistory=true&showHistoryOutput=true`);
  return (await response.json()) as StatusBody;
}

/** The event type names of a status's history. */
export function eventTypes(status: StatusBody): string[] {
  return (status.historyEvents ?? []).map((event) => String(event.EventType));
}

/** Polls `condition` until it holds. @throws {Error} naming `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = STEP_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
