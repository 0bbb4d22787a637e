/**
 * The **prompt path** of a write, run after the response and not waited for: what keeps the
 * index lag low while the write's cover (outboxCovers.ts) guarantees the drain. Either the
 * writer drains its department itself after a linger (the writes of the linger share the round;
 * a nudge at once when that drain fails), or a nudge visible at once lingers so that the nudges
 * of the writes that follow travel in the same message. Timers are unreferenced: the cover makes
 * up for a process that stops before they fire.
 *
 * Why: docs/queues.md "Transactional outbox" (the prompt path, "The writer drains"); the words
 * nudge, linger: docs/glossary.md.
 */
import type { QueueClient } from '@azure/storage-queue';
import { ensureQueue } from '../../storage/createOnce';
import { sendJsonMessage } from '../../storage/queue';
import { nudgeSender, type OutboxNudge } from './indexMessages';

/** How the prompt path lingers (queueChangeSink.ts resolves them from its options). */
export interface PromptSettings {
  /** How long a nudge visible at once waits for later writes' nudges (0: sent at once). */
  nudgeLingerMs: number;
  /** How long a department's writes wait for the writes that follow before the writer drains. */
  drainLingerMs: number;
  /** Told of a nudge that could not be sent (after the SDK's retries). */
  onError: (error: unknown, department: string) => void;
  /** Keeps work running past the writes that started it, for the sink's `settled`. */
  track: (work: Promise<void>) => void;
}

/** One process's lingering nudges and writer drains (one instance per sink). */
export class PromptPath {
  /** Departments whose writer drain waits for the end of its linger. */
  private readonly lingering = new Set<string>();
  /** Departments of nudges lingering or waiting for a send slot (their send has not begun). */
  private readonly unsent = new Set<string>();
  /** Departments waiting for the end of the nudge's linger. */
  private readonly held = new Set<string>();
  /**
   * Department → the `traceparent` of the write that asked for its lingering nudge. A message
   * carries the first of its departments' (one message, one parent; the others' writes are not
   * linked).
   */
  private readonly traces = new Map<string, string>();
  private readonly sender = nudgeSender((departments) => this.send(departments));

  constructor(
    private readonly queue: QueueClient,
    private readonly settings: PromptSettings,
  ) {}

  /**
   * Nudges `departments` after the linger. A department is left out while a nudge for it lingers
   * or waits for a send slot: that message is stored after this commit, so its drain reads the
   * outbox after it.
   */
  nudgeSoon(departments: readonly string[], traceparent?: string): void {
    const fresh = departments.filter((department) => !this.unsent.has(department));
    for (const department of fresh) {
      this.unsent.add(department);
      if (traceparent !== undefined) this.traces.set(department, traceparent);
    }
    if (fresh.length === 0) return;
    const { nudgeLingerMs, track } = this.settings;
    if (nudgeLingerMs <= 0) return track(this.sendNudges(fresh));
    if (this.held.size === 0) {
      track(
        new Promise<void>((resolve) => {
          setTimeout(() => {
            const held = [...this.held];
            this.held.clear();
            void this.sendNudges(held).then(resolve);
          }, nudgeLingerMs).unref();
        }),
      );
    }
    for (const department of fresh) this.held.add(department);
  }

  /** Runs the writer's drain of `department` after its linger, unless one already lingers. */
  drainSoon(department: string, run: (department: string) => Promise<unknown>): void {
    if (this.lingering.has(department)) return;
    this.lingering.add(department);
    this.settings.track(
      new Promise<void>((resolve) => {
        setTimeout(() => {
          // Requested now, the drain reads the outbox after this moment (a drain already running
          // reads it once more): a later write lingers anew. When it fails, a nudge at once.
          const drained = run(department);
          this.lingering.delete(department);
          void drained.then(
            () => resolve(),
            () => {
              this.unsent.add(department);
              void this.sendNudges([department]).then(resolve);
            },
          );
        }, this.settings.drainLingerMs).unref();
      }),
    );
  }

  /** Nudges each department (packed into as few messages as fit); failures are reported. */
  private sendNudges(departments: readonly string[]): Promise<void> {
    const { onError } = this.settings;
    return Promise.all(
      departments.map((department) =>
        this.sender.add(department).catch((error: unknown) => onError(error, department)),
      ),
    ).then(() => undefined);
  }

  /** Sends one nudge message for `departments`, visible at once. */
  private async send(departments: readonly string[]): Promise<void> {
    // A nudge being sent does not stand for later commits: it may be stored, and drained,
    // before them (those get a nudge of their own).
    const traceparent = departments.map((d) => this.traces.get(d)).find((t) => t !== undefined);
    for (const department of departments) {
      this.unsent.delete(department);
      this.traces.delete(department);
    }
    const nudge: OutboxNudge = { v: 2, departments: [...departments] };
    await ensureQueue(this.queue);
    await sendJsonMessage(
      this.queue,
      traceparent === undefined ? nudge : { ...nudge, traceparent },
    );
  }
}
