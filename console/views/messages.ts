/** The employee's message statistics: the 24-hour chart (uPlot) and the year heat map. */
import uPlot from 'uplot';
import { api } from '../api';
import { h, loading } from '../dom';
import { state } from '../session';

/** Renders the last 24 hours' messages as a chart. */
export async function renderHourly(section: HTMLElement, path: string): Promise<void> {
  const body = h('div', { id: 'hourly' });
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
  body.replaceChildren();
  const width = Math.max(280, Math.min(section.clientWidth - 32, 640));
  new uPlot(
    {
      width,
      height: 200,
      scales: { x: { time: true } },
      series: [
        {},
        {
          label: 'Messages',
          stroke: '#0b5cad',
          fill: 'rgba(11,92,173,0.15)',
          paths: uPlot.paths.bars!({ size: [0.8] }),
        },
      ],
      axes: [{}, { label: 'per hour' }],
      legend: { show: true },
    },
    [xs, series],
    body,
  );
  body.setAttribute(
    'aria-label',
    `Messages per hour over the last 24 hours: ${series.reduce((a, b) => a + b, 0)} in all.`,
  );
  body.setAttribute('role', 'img');
}

/** Renders the year's messages as a heat map. */
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
  const max = Math.max(1, ...data.days);
  const first = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  const cells: HTMLElement[] = [];
  for (let i = 0; i < first; i++) cells.push(h('span', { 'aria-hidden': 'true', class: 'pad' }));
  data.days.forEach((count, i) => {
    const level = count === 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4));
    const date = new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10);
    cells.push(h('span', { class: `l${level}`, title: `${date}: ${count} messages` }));
  });
  const total = data.days.reduce((a, b) => a + b, 0);
  body.replaceChildren(
    h(
      'div',
      {
        class: 'heat',
        role: 'img',
        'aria-label': `${total} messages in ${year}, busiest day ${max}.`,
      },
      ...cells,
    ),
    h('p', { class: 'muted' }, `${total} messages in ${year}; the busiest day had ${max}.`),
  );
}
