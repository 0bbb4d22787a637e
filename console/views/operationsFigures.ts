/**
 * The Operations page's figures as tables: what `GET /api/operations` answers, drawn one part per
 * eventual process (outbox, poison queues, timers, log batches). Apart from the page's refresh
 * loop so a reader finds how a figure is shown without the polling and the chart around it.
 */
import { stackRows } from '../dom';

/** What `GET /api/operations` answers (the fields the page shows). */
export interface Overview {
  generatedAt: string;
  outbox: {
    departmentsChecked: number;
    departmentsTruncated: boolean;
    departments: {
      department: string;
      pending: number;
      pendingCapped: boolean;
      oldestAgeSeconds: number;
    }[];
  };
  poisonQueues: PoisonQueue[];
  timers: { timer: string; finishedAt: string; outcome: string; error?: string }[];
  logBacklog: {
    queue: string;
    approximateCount: number;
    oldestQueuedAt: string | null;
    oldestHour: string | null;
  };
}

/** One poison queue of the overview. */
export interface PoisonQueue {
  queue: string;
  poisonQueue: string;
  approximateCount: number;
}

/** An element with text content and attributes (text is never parsed as HTML). */
export function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { text?: string; attrs?: Record<string, string> } = {},
  children: (Node | null)[] = [],
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (props.text !== undefined) made.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) made.setAttribute(name, value);
  made.append(...children.filter((child): child is Node => child !== null));
  return made;
}

function table(id: string, headings: string[], rows: HTMLTableRowElement[]): HTMLTableElement {
  const head = node(
    'tr',
    {},
    headings.map((text) => node('th', { text })),
  );
  const made = node('table', { attrs: { id } }, [
    node('thead', {}, [head]),
    node('tbody', {}, rows),
  ]);
  stackRows(made);
  return made;
}

function row(cells: (string | Node)[]): HTMLTableRowElement {
  return node(
    'tr',
    {},
    cells.map((cell) =>
      typeof cell === 'string' ? node('td', { text: cell }) : node('td', {}, [cell]),
    ),
  );
}

/** `125` → `2 min 5 s`. */
export function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function outboxPart({ outbox }: Overview): (Node | null)[] {
  return [
    node('h3', { text: 'Index outbox' }),
    node('p', {
      // The view lists the departments marked as waiting for the sweep (no queued message covers
      // their changes); changes a message covers drain on their own (docs/queues.md).
      text:
        `${outbox.departments.length} department${outbox.departments.length === 1 ? '' : 's'} ` +
        'with changes waiting for the sweep; changes a queued message covers drain on their own.',
      attrs: { id: 'outbox-summary' },
    }),
    outbox.departments.length === 0
      ? null
      : table(
          'outbox-table',
          ['Department', 'Pending rows', 'Oldest row'],
          outbox.departments.map((d) =>
            row([
              d.department,
              `${d.pending}${d.pendingCapped ? '+' : ''}`,
              age(d.oldestAgeSeconds),
            ]),
          ),
        ),
  ];
}

function poisonPart(
  { poisonQueues }: Overview,
  controls: (queue: PoisonQueue) => Node[],
): (Node | null)[] {
  return [
    node('h3', { text: 'Poison queues' }),
    table(
      'poison-table',
      ['Queue', 'Messages', ''],
      poisonQueues.map((q) =>
        row([
          q.poisonQueue,
          String(q.approximateCount),
          node('span', { attrs: { class: 'buttons' } }, controls(q)),
        ]),
      ),
    ),
  ];
}

function timersPart({ timers }: Overview): (Node | null)[] {
  return [
    node('h3', { text: 'Timers' }),
    timers.length === 0
      ? node('p', { text: 'No timer has run yet.', attrs: { class: 'muted' } })
      : table(
          'timers-table',
          ['Timer', 'Last run ended', 'Outcome'],
          timers.map((t) =>
            row([
              t.timer,
              t.finishedAt.replace('T', ' ').slice(0, 19),
              t.error ? `${t.outcome}: ${t.error}` : t.outcome,
            ]),
          ),
        ),
  ];
}

function logBacklogPart({ logBacklog }: Overview): (Node | null)[] {
  return [
    node('h3', { text: 'Log batches' }),
    node('p', {
      text:
        `${logBacklog.approximateCount} waiting in ${logBacklog.queue}` +
        (logBacklog.oldestQueuedAt ? `, the oldest queued at ${logBacklog.oldestQueuedAt}` : '') +
        (logBacklog.oldestHour ? `, with lines of the hour ${logBacklog.oldestHour}` : '') +
        '.',
      attrs: { id: 'log-backlog' },
    }),
  ];
}

/** The figures of `overview`, each poison queue's row ending with the buttons `controls` makes. */
export function figureParts(overview: Overview, controls: (queue: PoisonQueue) => Node[]): Node[] {
  return [
    ...outboxPart(overview),
    ...poisonPart(overview, controls),
    ...timersPart(overview),
    ...logBacklogPart(overview),
  ].filter((part): part is Node => part !== null);
}
