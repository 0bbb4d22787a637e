/**
 * The move orchestration: validate → copy into the target partition (one transaction there) →
 * re-point the target's outside indexes → remove from the source (one transaction there, only the
 * version copied; if the source changed meanwhile, copy again and remove again, bounded) →
 * re-point the source's outside indexes.
 *
 * Deterministic: no I/O, no clock, no randomness here — every effect is an activity, and every
 * activity is safe to run again (the runtime may replay any of them after a crash). Until the
 * removal, the source is intact; the target copy is visible and writable from its insert on, and a
 * later round never rewrites what was edited there (copyToTarget.ts); a failed validation or copy
 * leaves nothing moved. A step that finds a department frozen by a relocation is called again
 * after a durable timer (../relocationWait.ts), not failed.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import { Activities } from '../names';
import { isRefusal, refusalError } from '../refusal';
import { callWaitingOutRelocation } from '../relocationWait';
import { activityRetryOptions } from '../retryPolicy';
import type { CopyInput, CopyResult } from './copyToTarget';
import { sourceKeptChanging } from './moveErrors';
import { MAX_COPY_ROUNDS, type MoveInput, type MoveRequest } from './moveRequest';
import type { MovePlan, RemoveInput, RemoveResult } from './moveSteps';

/** The orchestration's output. */
export interface MoveOutput {
  department: string;
  toDepartment: string;
  employeeId: string;
  /** False when an earlier run had already moved the employee (nothing left to do). */
  moved: boolean;
  reviewsCopied: number;
}

/** Re-pointing input: the department whose outside indexes must match its primary entities. */
export interface ReindexInput {
  department: string;
  employeeId: string;
  /** Email and last name the employee had there, to find entries the move orphaned. */
  previous?: { email?: string; lastName?: string };
}

function settled<T>(value: unknown): T {
  if (isRefusal(value)) throw refusalError(value);
  return value as T;
}

/** The move orchestrator (input {@link MoveRequest}). */
export function* moveEmployeeOrchestrator(
  context: OrchestrationContext,
): Generator<Task, MoveOutput, unknown> {
  const request = context.df.getInput<MoveRequest>();
  const move: MoveInput = {
    department: request.department,
    employeeId: request.employeeId,
    toDepartment: request.toDepartment,
    moveId: context.df.instanceId,
  };
  const retry = activityRetryOptions();
  const summary = (moved: boolean, reviewsCopied: number): MoveOutput => ({
    department: move.department,
    toDepartment: move.toDepartment,
    employeeId: move.employeeId,
    moved,
    reviewsCopied,
  });

  context.df.setCustomStatus({ step: 'validate' });
  const plan = settled<MovePlan>(
    yield context.df.callActivityWithRetry(Activities.validateMove, retry, move),
  );
  if (plan.state === 'alreadyMoved') return summary(false, 0);
  // From here on, only the incarnation validated is copied and removed: a re-run activity finds
  // an employee created again with the id in the source and leaves it alone.
  const moving: MoveInput = { ...move, incarnation: plan.incarnation };

  // Copy, then remove only the version copied. An edit of the source in between makes the
  // removal answer `sourceChanged`: copy again (refreshing the target unless it was edited
  // there meanwhile), remove again.
  let copy: CopyResult | undefined;
  for (let round = 1; round <= MAX_COPY_ROUNDS; round++) {
    context.df.setCustomStatus({ step: 'copy', round });
    // The next round refreshes only the target version this round wrote: an edit of the target
    // made during the move wins (copyToTarget.ts).
    const copyInput: CopyInput = { ...moving, ownedEtag: copy?.targetEtag };
    copy = settled<CopyResult>(
      yield* callWaitingOutRelocation(context, Activities.copyToTarget, retry, copyInput),
    );
    const target: ReindexInput = { department: move.toDepartment, employeeId: move.employeeId };
    settled(yield* callWaitingOutRelocation(context, Activities.reindexEmployee, retry, target));

    context.df.setCustomStatus({ step: 'remove', round });
    const removeInput: RemoveInput = {
      ...moving,
      copied: { sourceEtag: copy.sourceEtag, copiedReviews: copy.copiedReviews },
    };
    const removal = settled<RemoveResult>(
      yield* callWaitingOutRelocation(context, Activities.removeFromSource, retry, removeInput),
    );
    if (!('sourceChanged' in removal)) break;
    if (round === MAX_COPY_ROUNDS) {
      throw sourceKeptChanging(move, MAX_COPY_ROUNDS);
    }
  }
  const source: ReindexInput = {
    department: move.department,
    employeeId: move.employeeId,
    previous: plan.employee,
  };
  settled(yield* callWaitingOutRelocation(context, Activities.reindexEmployee, retry, source));
  context.df.setCustomStatus({ step: 'done' });
  return summary(true, copy?.reviews ?? 0);
}
