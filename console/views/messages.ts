/**
 * The employee's message statistics: the last 24 hours as a bar chart (uPlot; data series: one
 * entity per day with 24 hourly counters) and the year as a heat map (wide entity: 366 daily
 * counters), with month and weekday labels, a legend and a summary in words.
 */
import uPlot from 'uplot';
import { api } from '../api';
import { h, loading } from '../dom';
import { heatCell, level, monthStarts, plural, utcClock, yearSummary } from '../figures';
import { state } from '../session';
import { fitToWidth } from './charts';

/** Renders the last 24 hours' messages as a chart. */
export async function renderHourly(section: HTMLElement, path: string): Promise<void> {
  const body = h('div', { id: 'hourly', class: 'chart' });
  section.append(body);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const days = await loading(body, 'the message counts', () =>
    Promise.all(
      [yesterday, today].map((day) =>
        api<{ day: string; hours: number[] }>(
          state.session,
          'GET',
          `${path}/messages/hourly?day=${day}`,
        ),
      ),
    ),
  );
  if (!days) return;
  // The 24 hours up to now: the tail of yesterday, then today.
  const hour = now.getUTCHours();
  const series = [...days[0]!.hours.slice(hour + 1), ...days[1]!.hours.slice(0, hour + 1)];
  const start =
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour) / 1000 - 23 * 3600;
  const xs = series.map((_, i) => start + i * 3600);
  const total = series.reduce((a, b) => a + b, 0);
  body.replaceChildren();
  const summary = h(
    'p',
    { class: 'muted' },
    total === 0
      ? 'No messages in the last 24 hours.'
      : `${plural(total, 'message')} in the last 24 hours.`,
  );
  const plot = new uPlot(
    {
      width: 320,
      height: 200,
      scales: {
        x: { time: true, range: () => [start - 1800, start + 23 * 3600 + 1800] },
        y: { range: (_u, _min, max) => [0, Math.max(4, max)] },
      },
      series: [
        {
          label: 'Hour (UTC)',
          value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(11, 16)),
        },
        {
          label: 'Messages',
          stroke: '#0b5cad',
          fill: 'rgba(11,92,173,0.25)',
          paths: uPlot.paths.bars!({ size: [0.8] }),
          points: { show: false },
        },
      ],
      axes: [
        {
          space: 60,
          values: (_u, splits) => splits.map(utcClock),
        },
        { size: 40 },
      ],
      legend: { show: false },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    },
    [xs, series],
    body,
  );
  fitToWidth(plot, body, 200);
  body.append(summary);
  body.setAttribute('aria-label', `Messages per hour over the last 24 hours: ${total} in all.`);
  body.setAttribute('role', 'img');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Renders the year's messages as a heat map (weeks as columns, weekdays as rows). */
export async function renderYear(section: HTMLElement, path: string): Promise<void> {
  const body = h('div');
  section.append(body);
  const year = new Date().getUTCFullYear();
  const data = await loading(body, 'the year', () =>
    api<{ year: number; days: number[] }>(
      state.session,
      'GET',
      `${path}/messages/daily?year=${year}`,
    ),
  );
  if (!data) return;
  const max = Math.max(0, ...data.days);
  const weeks = heatCell(year, data.days.length - 1).week + 1;
  const grid = h('div', { class: 'heat' });
  grid.style.setProperty('--weeks', String(weeks));
  // Month labels over the week in which each month starts; column 1 holds the weekday labels.
  monthStarts(year).forEach((week, month) => {
    const label = h('span', { class: 'month', 'aria-hidden': 'true' }, MONTHS[month]!);
    label.style.gridColumn = `${week + 2} / span 4`;
    grid.append(label);
  });
  for (const d of [1, 3, 5]) {
    const label = h('span', { class: 'weekday', 'aria-hidden': 'true' }, WEEKDAYS[d]!);
    label.style.gridRow = String(d + 2);
    grid.append(label);
  }
  data.days.forEach((count, i) => {
    const date = new Date(Date.UTC(year, 0, 1 + i));
    const when = date.toLocaleDateString('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const cell = h('span', {
      class: `day l${level(count, max)}`,
      title: `${when}: ${plural(count, 'message')}`,
    });
    const { week, weekday } = heatCell(year, i);
    cell.style.gridColumn = String(week + 2);
    cell.style.gridRow = String(weekday + 2);
    grid.append(cell);
  });
  const legend = h(
    'div',
    { class: 'legend', 'aria-hidden': 'true' },
    'Fewer',
    ...[0, 1, 2, 3, 4].map((l) => h('span', { class: `day l${l}` })),
    'More',
  );
  const summary = yearSummary(year, data.days);
  grid.setAttribute('role', 'img');
  grid.setAttribute('aria-label', summary);
  body.replaceChildren(grid, legend, h('p', { class: 'muted', id: 'year-summary' }, summary));
}
