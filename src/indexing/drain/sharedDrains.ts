/**
 * One process's drains of one set of index stores, shared per department: while a department is
 * being drained, later requests for it wait for one more drain that starts after the running one,
 * however many they are — and for no drain after that one. A drain that answers a write's cover
 * then refreshes the department listing's count (listedCount.ts). Each drain runs in the call of
 * one caller it answers: there is no loop of its own. The composition root
 * (functions/shared/composition/indexing.ts) builds the process's instance once, with the handler
 * of gone employees, and hands it to the queue worker, the sweep and the writer's drains; nothing
 * here is kept per module.
 */
import { refreshListedCount } from './listedCount';
import type { EmployeeGoneHandler, IndexStores } from '../indexStores';
import { drainDepartment, type LeasedDrainOptions, type LeasedDrainResult } from './leasedDrain';
import { inSpan } from '../../telemetry/tracing';

/** The span of one drain: its outbox check, lease and rounds (their writes are its children). */
const DRAIN_SPAN = 'directory.outbox.drain';

/** Options of {@link SharedDrains}. */
export interface SharedDrainsOptions extends Pick<
  LeasedDrainOptions,
  'limits' | 'now' | 'afterStep'
> {
  /** Told of each employee a drain found gone (default: nobody). */
  onGone?: EmployeeGoneHandler;
  /**
   * The drain to run (default the leased drain, {@link drainDepartment}; a writing process runs
   * `drainAfterWrite`, src/indexing/drain/writerDrain.ts). It calls `onHandOver` right before it
   * sends a nudge that continues it elsewhere (see {@link LeasedDrainOptions.onHandOver}).
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
  /** A write's cover: it answers for rows written before this moment (`onlyRowsBefore`). */
  before?: number;
}

/** What a waiting caller is told: the drain that answers it, or that it runs the next one. */
type Turn = { result: LeasedDrainResult } | { runs: true };

/** A caller waiting for a drain that starts after its request. */
interface Waiter {
  /** When the request came (the clock of the drains): a drain's budget runs from its earliest. */
  at: number;
  /** The request is a write's cover: its drain refreshes the listing's count after it. */
  cover: boolean;
  resolve(turn: Turn): void;
  reject(error: unknown): void;
}

/** Requests that came in while a drain ran, not answered yet. */
interface Requested {
  waiters: Waiter[];
  /** Lease holders named by the expiry nudges among them. */
  holders: Set<string>;
  /** The latest `before` of the covers among them; unset when any other request came. */
  before?: number;
  /** Whether a request that is not a cover came (then the drain looks at every row). */
  plain: boolean;
}

function note(requested: Requested, request: DrainRequest, waiter: Waiter): void {
  requested.waiters.push(waiter);
  if (request.holder !== undefined) requested.holders.add(request.holder);
  if (request.before === undefined) requested.plain = true;
  else requested.before = Math.max(requested.before ?? 0, request.before);
}

/** Takes the requests so far (a drain starting or handing over now answers them). */
function take(requested: Requested): Waiter[] {
  const waiters = requested.waiters;
  requested.waiters = [];
  requested.holders.clear();
  requested.plain = false;
  requested.before = undefined;
  return waiters;
}

/** See the file comment. */
export class SharedDrains {
  private readonly running = new Map<string, Requested>();
  /** Told of gone employees (a no-op when the options name no handler). */
  readonly onGone: EmployeeGoneHandler;
  private readonly drain: SharedDrainsOptions['drain'];
  private readonly limits: Pick<SharedDrainsOptions, 'limits' | 'now' | 'afterStep'>;
  private readonly now: () => number;

  /** `options`: the gone handler, and limits, clock and drain of the drains (tests). */
  constructor(
    readonly stores: IndexStores,
    options: SharedDrainsOptions = {},
  ) {
    const { onGone, drain, ...limits } = options;
    this.onGone = onGone ?? (async () => undefined);
    this.drain = drain;
    this.limits = limits;
    this.now = limits.now ?? Date.now;
  }

  /** Whether a drain of `department` is running in this process now. */
  isRunning(department: string): boolean {
    return this.running.has(department);
  }

  /**
   * Resolves once a drain of `department` that started after this call has finished (or handed
   * over, after this call, to a nudge that continues it elsewhere), with what that drain did;
   * `request` says what the message behind it names. It does not wait for the drains after that
   * one, which later requests may keep asking for.
   *
   * Each drain runs in the call of one caller it answers — the first, or the first of those that
   * came while the drain before ran — and answers the requests made before it started and — when
   * it continues in a new invocation — those made before it began sending that nudge (the message
   * is stored after them, so its drain reads the outbox after their commits). A request made after
   * that moment is not answered by it — the message may already be stored and drained, before that
   * request's commit, by the time its send's answer arrives — so it waits for the next drain,
   * which its own call or an earlier waiter's runs. No caller is held for the drains that later
   * requests ask for: a department written to without pause would otherwise keep the invocation
   * that asked first running past its budget and the host's `functionTimeout`. A drain's budget
   * runs from the earliest request it answers.
   *
   * @throws whatever that drain throws (every waiting caller gets it; their nudges are retried).
   */
  async request(department: string, request: DrainRequest = {}): Promise<LeasedDrainResult> {
    const at = this.now();
    const cover = request.before !== undefined;
    let requested = this.running.get(department);
    if (requested) {
      const waiting = requested;
      const turn = await new Promise<Turn>((resolve, reject) =>
        note(waiting, request, { at, cover, resolve, reject }),
      );
      if ('result' in turn) return turn.result;
    } else {
      requested = { waiters: [], holders: new Set(), plain: false };
      note(requested, request, { at, cover, resolve: () => undefined, reject: () => undefined });
      this.running.set(department, requested);
    }
    // This call runs the drain, for the requests noted so far (its own among them).
    const standsInFor = [...requested.holders];
    const onlyRowsBefore = requested.plain ? undefined : requested.before;
    let answered = take(requested);
    const startedAt = Math.min(...answered.map((waiter) => waiter.at));
    const taken = requested;
    const onHandOver = (): void => {
      answered = answered.concat(take(taken));
    };
    let result: LeasedDrainResult;
    try {
      const { stores, drain, onGone, limits } = this;
      const options = { ...limits, startedAt, onGone, standsInFor, onlyRowsBefore, onHandOver };
      result = await inSpan(DRAIN_SPAN, { 'directory.department': department }, () =>
        drain
          ? drain(stores, department, onGone, onHandOver)
          : drainDepartment(stores, department, options),
      );
      // After the drain, whatever it found or did (drained, absorbed, continued): the count is
      // read after the covered commits, and the refresh needs no lease (its ETag condition).
      if (answered.some((waiter) => waiter.cover)) await refreshListedCount(stores, department);
    } catch (error) {
      for (const waiter of [...answered, ...take(requested)]) waiter.reject(error);
      this.running.delete(department);
      throw error;
    }
    for (const waiter of answered) waiter.resolve({ result });
    // No await between this look at the requests and what follows: a request either is noted
    // before it, and its first waiter runs the next drain, or finds no drain running.
    const next = requested.waiters[0];
    if (next) next.resolve({ runs: true });
    else this.running.delete(department);
    return result;
  }
}
