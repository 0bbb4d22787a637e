/**
 * One process's drains of one set of index stores, shared per department: while a department is
 * being drained, later requests for it wait for one more drain that starts after the running one,
 * however many they are. The composition root (functions/shared/services.ts) builds the process's
 * instance once, with the handler of gone employees, and hands it to the queue worker, the sweep
 * and the writer's drains; nothing here is kept per module.
 */
import type { EmployeeGoneHandler, IndexStores } from './indexStores';
import {
  addUp,
  drainDepartment,
  nothingDrained,
  type LeasedDrainOptions,
  type LeasedDrainResult,
} from './leasedDrain';

/** Options of {@link SharedDrains}. */
export interface SharedDrainsOptions extends Pick<
  LeasedDrainOptions,
  'limits' | 'now' | 'afterStep'
> {
  /** Told of each employee a drain found gone (default: nobody). */
  onGone?: EmployeeGoneHandler;
  /**
   * The drain to run (default the leased drain, {@link drainDepartment}; a writing process runs
   * `drainAfterWrite`, src/indexing/writerDrain.ts). It calls `onHandOver` right before it sends
   * a nudge that continues it elsewhere (see {@link LeasedDrainOptions.onHandOver}).
   */
  drain?: (
    stores: IndexStores,
    department: string,
    onGone: EmployeeGoneHandler,
    onHandOver: () => void,
  ) => Promise<LeasedDrainResult>;
}

/** What a request for a drain says about itself (an `index-updates` message's fields). */
export interface DrainRequest {
  /** The lease holder an expiry nudge names (leasedDrain.ts `standsInFor`). */
  holder?: string;
  /** A write's cover: it answers for rows written before this moment (leasedDrain.ts `onlyRowsBefore`). */
  before?: number;
}

/** Requests that came in while a drain ran. */
interface Requested {
  again: boolean;
  /** Lease holders named by the expiry nudges among them. */
  holders: Set<string>;
  /** The latest `before` of the covers among them; unset when any other request came. */
  before?: number;
  /** Whether a request that is not a cover came (then the drain looks at every row). */
  plain: boolean;
}

function note(requested: Requested, request: DrainRequest): void {
  requested.again = true;
  if (request.holder !== undefined) requested.holders.add(request.holder);
  if (request.before === undefined) requested.plain = true;
  else requested.before = Math.max(requested.before ?? 0, request.before);
}

/** See the file comment. */
export class SharedDrains {
  private readonly running = new Map<
    string,
    { requested: Requested; done: Promise<LeasedDrainResult> }
  >();
  /** Told of gone employees (a no-op when the options name no handler). */
  readonly onGone: EmployeeGoneHandler;
  private readonly drain: SharedDrainsOptions['drain'];
  private readonly limits: Pick<SharedDrainsOptions, 'limits' | 'now' | 'afterStep'>;

  /** `options`: the gone handler, and limits, clock and drain of the drains (tests). */
  constructor(
    readonly stores: IndexStores,
    options: SharedDrainsOptions = {},
  ) {
    const { onGone, drain, ...limits } = options;
    this.onGone = onGone ?? (async () => undefined);
    this.drain = drain;
    this.limits = limits;
  }

  /** Whether a drain of `department` is running in this process now. */
  isRunning(department: string): boolean {
    return this.running.has(department);
  }

  /**
   * Resolves once a drain of `department` that started after this call has finished (or handed
   * over, after this call, to a nudge that continues it elsewhere); `request` says what the
   * message behind it names.
   *
   * @throws whatever that drain throws (every waiting caller gets it; their nudges are retried).
   */
  request(department: string, request: DrainRequest = {}): Promise<LeasedDrainResult> {
    const running = this.running.get(department);
    if (running) {
      note(running.requested, request);
      return running.done;
    }
    const requested: Requested = { again: false, holders: new Set(), plain: false };
    note(requested, request);
    const done = this.drainWhileRequested(department, requested);
    this.running.set(department, { requested, done });
    return done;
  }

  /**
   * Drains, and again as long as requests came in during the last drain. A drain that continues
   * in a new invocation answers the requests made before it began sending that nudge (the
   * message is stored after them, so its drain reads the outbox after their commits): they are
   * cleared then. A request made after that moment is not answered by it — the message may
   * already be stored and drained, before that request's commit, by the time its send's answer
   * arrives — so it makes this loop go round once more. The drains of one call share the
   * invocation's budget.
   */
  private async drainWhileRequested(
    department: string,
    requested: Requested,
  ): Promise<LeasedDrainResult> {
    const { drain, limits } = this;
    const startedAt = (limits.now ?? Date.now)();
    const total = nothingDrained();
    const forget = (): void => {
      requested.again = false;
      requested.holders.clear();
      requested.plain = false;
      requested.before = undefined;
    };
    const onHandOver = forget;
    try {
      do {
        const standsInFor = [...requested.holders];
        const onlyRowsBefore = requested.plain ? undefined : requested.before;
        forget();
        const result = drain
          ? await drain(this.stores, department, this.onGone, onHandOver)
          : await drainDepartment(this.stores, department, {
              ...limits,
              startedAt,
              onGone: this.onGone,
              standsInFor,
              onlyRowsBefore,
              onHandOver,
            });
        addUp(total, result);
        total.complete = result.complete;
        total.outcome = result.outcome;
      } while (requested.again);
      return total;
    } finally {
      // No await between the last check of `again` and this: a request either made the loop go
      // round once more or finds no drain running and starts one.
      this.running.delete(department);
    }
  }
}
