/**
 * The Operations page (admins): whether the eventual parts keep up, from `GET /api/operations`
 * (docs/operations.md) — outbox backlog per department, poison queues with Inspect and Replay,
 * each timer's last run, the log batches waiting — refreshed every few seconds while the page is
 * open, with a small uPlot chart of the oldest outbox row's age sampled at each refresh.
 */
import uPlot from 'uplot';
import { api, type Session } from '../api';
import { stackRows } from '../dom';
import { timeWindow, utcClock } from '../figures';
import { visibleControls } from '../text';
import { fitToWidth } from './charts';

/** What `GET /api/operations` answers (the fields the page shows). */
interface Overview {
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
  poisonQueues: { queue: string; poisonQueue: string; approximateCount: number }[];
  timers: { timer: string; finishedAt: string; outcome: string; error?: string }[];
  logBacklog: {
    queue: string;
    approximateCount: number;
    oldestQueuedAt: string | null;
    oldestHour: string | null;
  };
}

/** How often the page reads the figures again. */
const REFRESH_MS = 5_000;
/** Samples the chart keeps (10 minutes at the refresh rate). */
const MAX_SAMPLES = 120;

/** What the page needs from the console around it. */
export interface OperationsPageHost {
  session: Session;
  /** Shows an error in the console's alert box. */
  showError(error: unknown): void;
}

/** An element with text content and attributes (text is never parsed as HTML). */
function node<K extends keyof HTMLElementTagNameMap>(
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

/** The chart's time window: the last {@link MAX_SAMPLES} refreshes up to the newest sample. */
const xWindow = (times: readonly number[]): [number, number] =>
  timeWindow(times, (MAX_SAMPLES * REFRESH_MS) / 1000);

/** `125` → `2 min 5 s`. */
function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Builds the page's section; it reads the figures at once and then every {@link REFRESH_MS} until
 * it is removed from the document.
 */
export function operationsPage(host: OperationsPageHost): HTMLElement {
  const figures = node('div', { attrs: { id: 'operations-figures' } });
  const chart = node('div', {
    attrs: { id: 'operations-chart', role: 'img', 'aria-label': 'Oldest outbox row age' },
  });
  const messages = node('div', { attrs: { id: 'poison-messages' } });
  const refresh = node('button', {
    text: 'Refresh now',
    attrs: { type: 'button', id: 'operations-refresh', class: 'secondary' },
  });
  const section = node('section', { attrs: { id: 'operations' } }, [
    node('div', { attrs: { class: 'section-head' } }, [
      node('p', {
        text: 'Whether the eventual parts keep up, read from storage every 5 seconds while this page is open.',
        attrs: { class: 'muted' },
      }),
      refresh,
    ]),
    node('h3', { text: 'Oldest waiting index change, over the last 10 minutes (UTC)' }),
    chart,
    figures,
    messages,
  ]);

  const xs: number[] = [];
  const ys: number[] = [];
  let plot: uPlot | undefined;
  const sample = (overview: Overview): void => {
    const oldest = Math.max(0, ...overview.outbox.departments.map((d) => d.oldestAgeSeconds));
    xs.push(Date.parse(overview.generatedAt) / 1000);
    ys.push(oldest);
    if (xs.length > MAX_SAMPLES) {
      xs.shift();
      ys.shift();
    }
    chart.setAttribute('aria-label', `Oldest outbox row: ${age(oldest)} (${xs.length} samples).`);
    chart.dataset.latest = String(oldest);
    if (plot) {
      plot.setData([xs, ys]);
      plot.setScale('x', { min: xWindow(xs)[0], max: xWindow(xs)[1] });
      return;
    }
    plot = new uPlot(
      {
        width: 320,
        height: 160,
        scales: {
          // Ten minutes wide (the samples kept) however few there are, so one sample is a point at
          // the right edge, not a range of years.
          x: { time: true, auto: false, range: (u) => xWindow(u.data[0] as number[]) },
          y: { range: (_u, _min, max) => [0, Math.max(10, (max ?? 0) * 1.1)] },
        },
        series: [
          {},
          {
            label: 'Oldest outbox row (s)',
            stroke: '#b34700',
            fill: 'rgba(179,71,0,0.12)',
            points: { show: true, size: 5 },
          },
        ],
        axes: [
          {
            space: 70,
            values: (_u, splits) => splits.map(utcClock),
          },
          { label: 'seconds', size: 50 },
        ],
        legend: { show: false },
      },
      [xs, ys],
      chart,
    );
    fitToWidth(plot, chart, 160);
  };

  const act = async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      host.showError(error);
    }
  };

  const inspect = (queue: string): Promise<void> =>
    act(async () => {
      const peeked = await api<{
        items: { messageId: string; dequeueCount: number; body?: unknown; text?: string }[];
      }>(host.session, 'GET', `/operations/poison/${encodeURIComponent(queue)}?max=32`);
      messages.replaceChildren(
        node('h3', { text: `Poison messages of ${queue}` }),
        peeked.items.length === 0
          ? node('p', { text: 'None.', attrs: { class: 'muted' } })
          : // One element per message, control characters shown: a message's text cannot
            // draw lines that look like other messages.
            node(
              'ol',
              { attrs: { class: 'log', id: 'poison-list', tabindex: '0' } },
              peeked.items.map((m) =>
                node('li', {
                  attrs: { class: 'log-entry' },
                  text: visibleControls(
                    `${m.messageId} (dequeued ${m.dequeueCount}×) ${m.text ?? JSON.stringify(m.body)}`,
                  ),
                }),
              ),
            ),
      );
    });

  const replay = (queue: string): Promise<void> =>
    act(async () => {
      const result = await api<{ moved: number }>(
        host.session,
        'POST',
        `/operations/poison/${encodeURIComponent(queue)}/replay`,
        { max: 32 },
      );
      messages.replaceChildren(
        node('p', {
          text: `Moved ${result.moved} message${result.moved === 1 ? '' : 's'} back to ${queue}.`,
          attrs: { id: 'replay-result' },
        }),
      );
      await load();
    });

  const button = (
    text: string,
    queue: string,
    onClick: (queue: string) => Promise<void>,
    disabled = false,
  ): HTMLButtonElement => {
    const made = node('button', { text, attrs: { type: 'button', 'data-queue': queue } });
    made.disabled = disabled;
    if (disabled) made.title = 'The poison queue is empty.';
    made.addEventListener('click', () => void onClick(queue));
    return made;
  };

  // The queue whose Replay awaits its confirmation (kept across the refreshes that redraw it).
  let confirming: string | undefined;
  let last: Overview | undefined;
  const replayControl = (q: Overview['poisonQueues'][number]): Node[] => {
    if (q.approximateCount === 0) return [button('Replay', q.queue, replay, true)];
    if (confirming !== q.queue) {
      return [
        button('Replay', q.queue, async (queue) => {
          confirming = queue;
          if (last) render(last);
          figures.querySelector<HTMLButtonElement>('button.danger')?.focus();
        }),
      ];
    }
    const many =
      q.approximateCount === 1 ? 'the message' : `up to 32 of ~${q.approximateCount} messages`;
    const yes = button('Yes, replay', q.queue, async (queue) => {
      confirming = undefined;
      await replay(queue);
    });
    yes.className = 'danger';
    const no = button('Cancel', q.queue, async () => {
      confirming = undefined;
      if (last) render(last);
    });
    no.className = 'secondary';
    return [
      node('span', {
        text: `Move ${many} back to ${q.queue} to be processed again?`,
        attrs: { role: 'alert', class: 'question' },
      }),
      yes,
      no,
    ];
  };

  const render = (overview: Overview): void => {
    last = overview;
    const { outbox, poisonQueues, timers, logBacklog } = overview;
    const parts: (Node | null)[] = [
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
      node('h3', { text: 'Poison queues' }),
      table(
        'poison-table',
        ['Queue', 'Messages', ''],
        poisonQueues.map((q) =>
          row([
            q.poisonQueue,
            String(q.approximateCount),
            node('span', { attrs: { class: 'buttons' } }, [
              button('Inspect', q.queue, inspect, q.approximateCount === 0),
              ...replayControl(q),
            ]),
          ]),
        ),
      ),
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
    figures.replaceChildren(...parts.filter((part): part is Node => part !== null));
  };

  const load = async (): Promise<void> => {
    const overview = await api<Overview>(host.session, 'GET', '/operations');
    render(overview);
    sample(overview);
  };

  refresh.addEventListener('click', () => void act(load));
  const loop = async (): Promise<void> => {
    await act(load);
    // Stop once the page is gone (sign-out, another view): no request for a page nobody sees.
    const timer = setInterval(() => {
      if (!section.isConnected) clearInterval(timer);
      else void act(load);
    }, REFRESH_MS);
  };
  void loop();
  return section;
}
