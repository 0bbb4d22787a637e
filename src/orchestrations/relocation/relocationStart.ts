/**
 * What `POST /departments/{dept}/relocate` does (API.md "Storage accounts", docs/accounts.md "A
 * relocation that fails"): a department no relocation holds is claimed and its orchestration
 * started; one a relocation still holds answers that relocation — 409 `RelocationRunning` with its
 * id and phase while its orchestration runs, or, once it has stopped (failed, terminated), the
 * same relocation resumed under its own id: forward when it had switched (the source's deletion
 * goes on), else its rollback to the source goes on. A failure never leaves the department held.
 */
import { relocationRunning } from '../../accounts/accountErrors';
import {
  abandonRelocation,
  account,
  relocationPhase,
  startRelocation,
  type RelocationDeps,
} from '../../accounts/relocation/relocationSteps';
import type { RelocateInput, RelocationStage } from './relocateOrchestrator';

/** What the Durable client says of an instance (`runtimeStatus`, its last execution's input). */
export interface RelocationInstance {
  runtimeStatus: string;
  input?: unknown;
}

/** The Durable client, as far as a relocation's start needs it. */
export interface RelocationInstances {
  /** The instance's status, or `undefined` when there is none. */
  status(id: string): Promise<RelocationInstance | undefined>;
  /** Starts (or restarts, once stopped) the relocation orchestration under `id`. */
  start(id: string, input: RelocateInput): Promise<void>;
}

/** What the start answers: the relocation's id, its phase, and whether it was resumed. */
export interface RelocationStarted {
  id: string;
  phase: string;
  resumed: boolean;
}

/** Runtime statuses of an instance that will not go on by itself. */
const STOPPED = new Set(['Failed', 'Terminated', 'Canceled', 'Completed']);

/**
 * Starts a relocation of `department` to `to`, or answers / resumes the one that holds it.
 *
 * @throws {ValidationError} `UnknownAccount`.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `AlreadyThere`; {@link RelocationRunningError} while the holding
 *   relocation runs, or when it stopped and `to` is not its target (or it cannot be resumed).
 * @throws {DomainError} for storage faults; whatever `instances` throws.
 */
export async function relocateOrResume(
  deps: RelocationDeps,
  instances: RelocationInstances,
  request: { department: string; to: string; cacheMs: number; newId: () => string },
): Promise<RelocationStarted> {
  const { department, to, cacheMs } = request;
  account(deps, to);
  const current = await deps.placement.ofDepartment(department, { fresh: true });
  const id = current.relocation;
  if (!current.stored || id === undefined) {
    const plan = await startRelocation(deps, department, to, request.newId());
    try {
      await instances.start(plan.relocation, { plan, cacheMs });
    } catch (error) {
      await abandonRelocation(deps, plan);
      throw error;
    }
    return { id: plan.relocation, phase: 'copying', resumed: false };
  }
  const phase = relocationPhase(current);
  const instance = await instances.status(id);
  const last = instance?.input as RelocateInput | undefined;
  if (
    !instance ||
    !STOPPED.has(instance.runtimeStatus) ||
    last?.plan?.relocation !== id ||
    last.plan.to !== to
  ) {
    throw relocationRunning(department, id, phase, instance?.runtimeStatus);
  }
  // Switched: forward (the source's deletion); before the switch, or rolling back: the rollback.
  const stage: RelocationStage =
    current.phase === 'deleting' && current.account === to ? 'delete' : 'rollback';
  const input: RelocateInput = {
    plan: last.plan,
    cacheMs,
    stage,
    ...(last.stage === stage && last.cursor ? { cursor: last.cursor } : {}),
    copied: last.copied ?? 0,
    frozenAt: last.frozenAt ?? 0,
    ...(stage === 'rollback'
      ? { failure: last.failure ?? `the orchestration was ${instance.runtimeStatus.toLowerCase()}` }
      : {}),
  };
  try {
    await instances.start(id, input);
  } catch (error) {
    // Another request resumed it first: it runs.
    const now = await instances.status(id);
    if (now && !STOPPED.has(now.runtimeStatus)) {
      throw relocationRunning(department, id, phase, now.runtimeStatus);
    }
    throw error;
  }
  return { id, phase, resumed: true };
}
