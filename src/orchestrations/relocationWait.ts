/**
 * Waiting out a relocation's frozen window (docs/accounts.md "Relocating a department").
 *
 * While a department is frozen for the last sync and the switch, every write to it answers 503
 * `Relocating`: nothing was written, and the same write succeeds once the department is served
 * from its new account, a few seconds later. That is a wait, not a fault: retried as a fault (6
 * attempts, about 31 s), a move or an archive could fail after its copy and leave the employee in
 * two places. So the activities that write return a {@link RelocationWait} value instead of
 * throwing, and the orchestrator waits on a durable timer (no worker held) and calls the activity
 * again — for at most {@link RELOCATION_WAIT_SECONDS} of waits per call.
 */
import type { OrchestrationContext, RetryOptions, Task } from 'durable-functions';
import { ThrottledError } from '../domainErrors';
import { relocationOutlasted } from './orchestrationErrors';

/** An activity's answer while the department it writes is frozen by a relocation. */
export interface RelocationWait {
  relocating: { retryAfterSeconds: number; message: string };
}

/**
 * Seconds of waits one activity call may add up before the orchestration fails: far beyond a
 * frozen window (a placement cache period plus the last sync and the switch, seconds with the
 * defaults), so only a relocation that itself failed while frozen outlasts it.
 */
export const RELOCATION_WAIT_SECONDS = 600;

/** Longest single wait: the waits double from the answer's `Retry-After` up to this. */
const MAX_WAIT_SECONDS = 30;

/** True for a {@link RelocationWait}. */
export function isRelocationWait(value: unknown): value is RelocationWait {
  return (
    typeof value === 'object' &&
    value !== null &&
    'relocating' in value &&
    typeof (value as RelocationWait).relocating?.retryAfterSeconds === 'number'
  );
}

/**
 * Runs `work`; a 503 `Relocating` becomes a {@link RelocationWait}, anything else is as it was.
 *
 * @throws whatever `work` throws that is not `Relocating`.
 */
export async function waitOnRelocating<T>(work: () => Promise<T>): Promise<T | RelocationWait> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ThrottledError && error.code === 'Relocating') {
      return {
        relocating: { retryAfterSeconds: error.retryAfterSeconds, message: error.message },
      };
    }
    throw error;
  }
}

/**
 * Calls `activity` once per input, all at once, and calls again those that answered a
 * {@link RelocationWait} after a durable timer, until none does. Deterministic: the waits are
 * counted, not read from a clock.
 *
 * @returns the answers, in the order of `inputs`.
 * @throws {Error} `RelocationOutlasted` once the waits add up to {@link RELOCATION_WAIT_SECONDS}.
 */
export function* callAllWaitingOutRelocation(
  context: OrchestrationContext,
  activity: string,
  retry: RetryOptions,
  inputs: readonly unknown[],
): Generator<Task, unknown[], unknown> {
  const answers: unknown[] = new Array<unknown>(inputs.length);
  let pending = inputs.map((_, i) => i);
  let waited = 0;
  for (let round = 0; ; round++) {
    const calls = pending.map((i) => context.df.callActivityWithRetry(activity, retry, inputs[i]));
    // One call on its own, as before waits existed (a history recorded then replays the same).
    const results =
      calls.length === 1 ? [yield calls[0]!] : ((yield context.df.Task.all(calls)) as unknown[]);
    const waiting: number[] = [];
    let last: RelocationWait | undefined;
    for (const [k, result] of results.entries()) {
      if (isRelocationWait(result)) {
        waiting.push(pending[k]!);
        last = result;
      } else {
        answers[pending[k]!] = result;
      }
    }
    if (!last) return answers;
    if (waited >= RELOCATION_WAIT_SECONDS) {
      throw relocationOutlasted(activity, RELOCATION_WAIT_SECONDS, last.relocating.message);
    }
    const seconds = Math.min(
      Math.max(1, last.relocating.retryAfterSeconds) * 2 ** round,
      MAX_WAIT_SECONDS,
      RELOCATION_WAIT_SECONDS - waited,
    );
    waited += seconds;
    const at = context.df.currentUtcDateTime.getTime() + seconds * 1000;
    yield context.df.createTimer(new Date(at));
    pending = waiting;
  }
}

/**
 * {@link callAllWaitingOutRelocation} for one call.
 *
 * @throws {Error} `RelocationOutlasted` once the waits add up to {@link RELOCATION_WAIT_SECONDS}.
 */
export function* callWaitingOutRelocation(
  context: OrchestrationContext,
  activity: string,
  retry: RetryOptions,
  input: unknown,
): Generator<Task, unknown, unknown> {
  const [answer] = yield* callAllWaitingOutRelocation(context, activity, retry, [input]);
  return answer;
}
