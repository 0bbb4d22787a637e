/**
 * The Operations page (admins): whether the eventual parts keep up, from `GET /api/operations`
 * (docs/operations.md) — outbox backlog per department, poison queues with Inspect and Replay,
 * each timer's last run, the log batches waiting — refreshed every few seconds while the page is
 * open, with a small uPlot chart of the oldest outbox row's age sampled at each refresh. The
 * tables are drawn in `operationsFigures.ts`, the poison buttons in `operationsPoison.ts`.
 */
import uPlot from 'uplot';
import { api, type Session } from '../api';
import { timeWindow, utcClock } from '../figures';
import { fitToWidth } from './charts';
import { age, figureParts, node, type Overview } from './operationsFigures';
import { poisonControls } from './operationsPoison';

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

/** The chart's time window: the last {@link MAX_SAMPLES} refreshes up to the newest sample. */
const xWindow = (times: readonly number[]): [number, number] =>
  timeWindow(times, (MAX_SAMPLES * REFRESH_MS) / 1000);

/** The chart's uPlot options: seconds of the oldest outbox row over the samples' time. */
function chartOptions(): uPlot.Options {
  return {
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
  };
}

/**
 * The chart of the oldest outbox row's age drawn in `chart`: the function it answers adds one
 * overview's sample (dropping the oldest past {@link MAX_SAMPLES}) and draws the chart again.
 */
function outboxAgeChart(chart: HTMLElement): (overview: Overview) => void {
  const xs: number[] = [];
  const ys: number[] = [];
  let plot: uPlot | undefined;
  return (overview) => {
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
    plot = new uPlot(chartOptions(), [xs, ys], chart);
    fitToWidth(plot, chart, 160);
  };
}

/** The page's frame: its explanation, the Refresh button, the chart, the figures, the messages. */
function pageFrame(): {
  section: HTMLElement;
  refresh: HTMLButtonElement;
  chart: HTMLElement;
  figures: HTMLElement;
  messages: HTMLElement;
} {
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
  return { section, refresh, chart, figures, messages };
}

/**
 * Builds the page's section; it reads the figures at once and then every {@link REFRESH_MS} until
 * it is removed from the document.
 */
export function operationsPage(host: OperationsPageHost): HTMLElement {
  const { section, refresh, chart, figures, messages } = pageFrame();
  const sample = outboxAgeChart(chart);
  const act = async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      host.showError(error);
    }
  };
  let last: Overview | undefined;
  const render = (overview: Overview): void => {
    last = overview;
    figures.replaceChildren(...figureParts(overview, controls));
  };
  const load = async (): Promise<void> => {
    const overview = await api<Overview>(host.session, 'GET', '/operations');
    render(overview);
    sample(overview);
  };
  const controls = poisonControls({
    session: host.session,
    act,
    messages,
    figures,
    reload: load,
    redraw: () => {
      if (last) render(last);
    },
  });

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
