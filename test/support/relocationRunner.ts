/**
 * The relocation orchestrator itself (src/orchestrations/relocation/relocateOrchestrator.ts), run
 * in-process over its real activities against the emulators: each activity call runs once, and a
 * test's fault hook makes it fail for good (as when its 6 attempts are spent) before or after it
 * ran; timers pass at once (one process: its cache never keeps a frozen placement). Its Durable
 * client ({@link InProcessInstances}) starts and restarts instances the same way, so the HTTP
 * start's logic (relocationStart.ts) is tested as the route runs it.
 */
import type { OrchestrationContext } from 'durable-functions';
import type { RelocationDeps } from '../../src/accounts/relocation/relocationSteps';
import { Activities } from '../../src/orchestrations/names';
import {
  relocateDepartmentOrchestrator,
  type RelocateInput,
} from '../../src/orchestrations/relocation/relocateOrchestrator';
import {
  relocationCopyActivity,
  relocationDeleteActivity,
  relocationFreezeActivity,
  relocationRollbackActivity,
  relocationSwitchActivity,
  relocationSyncActivity,
} from '../../src/orchestrations/relocation/relocationActivities';
import type {
  RelocationInstance,
  RelocationInstances,
} from '../../src/orchestrations/relocation/relocationStart';

type Handler = (deps: RelocationDeps, input: never) => Promise<unknown>;
const handlers: Record<string, Handler> = {
  [Activities.relocationCopy]: relocationCopyActivity,
  [Activities.relocationFreeze]: relocationFreezeActivity,
  [Activities.relocationSync]: relocationSyncActivity,
  [Activities.relocationSwitch]: relocationSwitchActivity,
  [Activities.relocationDelete]: relocationDeleteActivity,
  [Activities.relocationRollback]: relocationRollbackActivity,
};

/** A fault: `before` fails the call without running it, `after` runs it and loses its answer. */
export type Fault = 'before' | 'after' | undefined;

/** Decides, per activity call (its name and how many calls of it came before), what fails. */
export type FaultHook = (activity: string, index: number, input: unknown) => Fault;

/** Thrown into the orchestrator as the Durable runtime reports an activity that failed for good. */
function failed(activity: string): Error {
  return new Error(`Activity function '${activity}' failed: the account is unreachable (fault)`);
}

type Task = { activity: string; input: unknown } | { timer: true };

/** How a run ended. */
export interface RunEnd {
  runtimeStatus: 'Completed' | 'Failed';
  output?: unknown;
  failure?: string;
  /** The input of its last execution (after every continue-as-new). */
  input: RelocateInput;
}

/**
 * Runs the orchestrator from `input` to its end, continuing as new as it asks.
 *
 * @param before - awaited before each activity call (a test acts there).
 */
export async function runRelocation(
  deps: RelocationDeps,
  first: RelocateInput,
  fault: FaultHook = () => undefined,
  before: (activity: string, index: number) => Promise<void> = async () => undefined,
): Promise<RunEnd> {
  const calls = new Map<string, number>();
  let input = first;
  for (;;) {
    let next: RelocateInput | undefined;
    const context = {
      df: {
        getInput: () => structuredClone(input),
        callActivityWithRetry: (activity: string, _retry: unknown, arg: unknown): Task => ({
          activity,
          input: arg,
        }),
        createTimer: (): Task => ({ timer: true }),
        setCustomStatus: () => undefined,
        continueAsNew: (again: RelocateInput) => (next = again),
        currentUtcDateTime: new Date(),
      },
    } as unknown as OrchestrationContext;
    const generator = relocateDepartmentOrchestrator(context);
    let step: IteratorResult<unknown, unknown>;
    try {
      step = generator.next();
      while (!step.done) {
        const task = step.value as Task;
        if ('timer' in task) {
          step = generator.next();
          continue;
        }
        const index = calls.get(task.activity) ?? 0;
        calls.set(task.activity, index + 1);
        await before(task.activity, index);
        const what = fault(task.activity, index, task.input);
        let answer: unknown;
        let error: unknown;
        try {
          if (what === 'before') throw failed(task.activity);
          answer = await handlers[task.activity]!(deps, structuredClone(task.input) as never);
          if (what === 'after') throw failed(task.activity);
        } catch (thrown) {
          error = thrown instanceof Error ? failed(`${task.activity}: ${thrown.message}`) : thrown;
        }
        step = error ? generator.throw(error) : generator.next(structuredClone(answer));
      }
    } catch (error) {
      return { runtimeStatus: 'Failed', failure: String(error), input };
    }
    if (!next) return { runtimeStatus: 'Completed', output: step.value, input };
    input = next;
  }
}

/**
 * The Durable client over {@link runRelocation}: `start` runs the instance to its end (status
 * `Running` meanwhile), with the faults and hooks of the test.
 */
export class InProcessInstances implements RelocationInstances {
  readonly instances = new Map<string, RelocationInstance & { end?: RunEnd }>();
  fault: FaultHook = () => undefined;
  before: (activity: string, index: number) => Promise<void> = async () => undefined;

  constructor(private readonly deps: RelocationDeps) {}

  async status(id: string): Promise<RelocationInstance | undefined> {
    const instance = this.instances.get(id);
    return instance && { runtimeStatus: instance.runtimeStatus, input: instance.input };
  }

  async start(id: string, input: RelocateInput): Promise<void> {
    const instance: RelocationInstance & { end?: RunEnd } = { runtimeStatus: 'Running', input };
    this.instances.set(id, instance);
    const end = await runRelocation(this.deps, input, this.fault, this.before);
    Object.assign(instance, { runtimeStatus: end.runtimeStatus, input: end.input, end });
  }

  /** How the instance ended. */
  end(id: string): RunEnd | undefined {
    return this.instances.get(id)?.end;
  }
}
