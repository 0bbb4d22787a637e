/**
 * The move's activities: each a small, idempotent call into a service, with permanent domain
 * errors returned as refusals (see ../refusal.ts) so the orchestrator fails at once with the
 * reason, and a department frozen by a relocation returned as a wait (../relocationWait.ts) so
 * the orchestrator calls again once it is served from its new account.
 */
import { reconcileEmployeeIndexes } from '../../indexing';
import { refuseOnPermanentError, type Refusal } from '../refusal';
import { waitOnRelocating, type RelocationWait } from '../relocationWait';
import type { OrchestrationServices } from '../services';
import { copyEmployeeToTarget, type CopyInput, type CopyResult } from './copyToTarget';
import type { ReindexInput } from './moveOrchestrator';
import type { MoveInput } from './moveRequest';
import {
  removeFromSource,
  validateMove,
  type MovePlan,
  type RemoveInput,
  type RemoveResult,
} from './moveSteps';

/** Activity: {@link validateMove}. */
export function validateMoveActivity(
  services: OrchestrationServices,
  move: MoveInput,
): Promise<MovePlan | Refusal> {
  return refuseOnPermanentError(() => validateMove(services.directory, move));
}

/** Activity: {@link copyEmployeeToTarget}. */
export function copyToTargetActivity(
  services: OrchestrationServices,
  move: CopyInput,
): Promise<CopyResult | Refusal | RelocationWait> {
  return waitOnRelocating(() =>
    refuseOnPermanentError(async () => {
      // Resolved per call: the photo copy and the target's insert go to one account.
      const pinned = await services.pinnedFor?.([move.department, move.toDepartment]);
      return copyEmployeeToTarget(
        pinned?.directory ?? services.directory,
        pinned?.photos ?? services.photos,
        move,
      );
    }),
  );
}

/** Activity: {@link removeFromSource}. */
export function removeFromSourceActivity(
  services: OrchestrationServices,
  input: RemoveInput,
): Promise<RemoveResult | Refusal | RelocationWait> {
  return waitOnRelocating(() =>
    refuseOnPermanentError(() => removeFromSource(services.directory, input)),
  );
}

/**
 * Activity: makes the employee's entries in the indexes outside the department partition match
 * its current primary entity in `input.department` (present: added; gone: removed), with the
 * indexing code's reconcile — the same function the `index-updates` worker runs.
 */
export function reindexEmployeeActivity(
  services: OrchestrationServices,
  input: ReindexInput,
): Promise<{ present: boolean } | RelocationWait> {
  return waitOnRelocating(async () => {
    const result = await reconcileEmployeeIndexes(services.indexStores, input);
    return { present: result.present };
  });
}
