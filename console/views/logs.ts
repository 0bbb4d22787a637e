/**
 * The admin's log window: one hour of one source, read by the browser straight from blob storage
 * with a read+list SAS on the `logs` container (hour-prefixed blobs, as Storage Analytics lays
 * them out), never through the API. The source and the hour are the URL's (Back returns to the
 * hour before "‹ Earlier"; a reload reads the same hour); without an hour it reads the current one.
 */
import type { LogLine } from '../../src/logs/format/lineFormat';
import { api, hourPrefix, readLogHour, type SasGrant } from '../api';
import { app, clearError, field, h, input, loading, plural } from '../dom';
import { href } from '../routes';
import { state } from '../session';
import { visibleControls } from '../text';
import { heading } from './shell';

/** The hour `hour` holds (an emptied or unreadable field: the current hour). */
function shownHour(hour: HTMLInputElement): Date {
  const at = new Date(`${hour.value.slice(0, 13)}:00:00Z`);
  return Number.isNaN(at.getTime())
    ? new Date(`${new Date().toISOString().slice(0, 13)}:00:00Z`)
    : at;
}

/** A button that moves `hour` by `hours` and submits `form` (so the URL follows). */
function stepButton(
  form: HTMLFormElement,
  hour: HTMLInputElement,
  hours: number,
  text: string,
  id: string,
): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary', id }, text);
  button.addEventListener('click', () => {
    const at = shownHour(hour);
    at.setUTCHours(at.getUTCHours() + hours);
    hour.value = `${at.toISOString().slice(0, 13)}:00`;
    form.requestSubmit();
  });
  return button;
}

/**
 * The lines as a list, one element per entry, its message on one line: a message cannot draw
 * lines of its own (a forged "Critical" line after a newline shows as `␊07:59 Critical …` inside it).
 */
function logLines(lines: LogLine[]): HTMLElement {
  if (lines.length === 0)
    return h('pre', { class: 'log', id: 'log-lines', tabindex: '0' }, '(no lines)');
  return h(
    'ol',
    { class: 'log', id: 'log-lines', tabindex: '0', 'aria-label': 'Log lines' },
    ...lines.map((l) =>
      h(
        'li',
        { class: 'log-entry' },
        h('time', {}, l.entry.at.toISOString().slice(11, 23)),
        '  ',
        h('span', { class: 'log-level' }, visibleControls(l.entry.level).padEnd(11)),
        ' ',
        h('span', { class: 'log-message' }, visibleControls(l.entry.message)),
      ),
    ),
  );
}

/** Reads the hour `at` of the source `name` and shows its lines in `body`. */
function readHour(body: HTMLElement, name: string, at: Date): void {
  const day = at.toISOString().slice(0, 10);
  const hh = at.toISOString().slice(11, 13);
  void loading(body, 'the log window', async () => {
    const grant = await api<SasGrant>(state.session, 'POST', '/sas/logs', {});
    const { blobs, lines } = await readLogHour(grant, name, at);
    body.replaceChildren(
      h(
        'p',
        { class: 'muted' },
        lines.length === 0
          ? `No lines from ${name} between ${hh}:00 and ${hh}:59 UTC on ${day}.`
          : `${plural(lines.length, 'line')} from ${name} between ${hh}:00 and ${hh}:59 UTC on ${day}.`,
      ),
      logLines(lines),
      h(
        'details',
        { class: 'how' },
        h('summary', {}, 'How this was read'),
        h(
          'p',
          {},
          `Your browser listed the blobs under ${hourPrefix(name, at)} (${plural(blobs.length, 'blob')}) and read each one straight from blob storage (`,
          h('code', {}, new URL(grant.url).host),
          ') with a short-lived read+list key the app handed out to admins: log lines live in hour-prefixed blobs, not in a table.',
        ),
      ),
    );
  });
}

/** Renders the log window of `sourceName` (default `web`) at `hourName` (default: this hour). */
export function renderLogs(sourceName = 'web', hourName?: string): void {
  const source = input('source', {
    id: 'log-source',
    value: sourceName,
    required: true,
    autocomplete: 'off',
  });
  const hour = input('hour', {
    id: 'log-hour',
    type: 'datetime-local',
    step: '3600',
    required: true,
    value: `${hourName ?? new Date().toISOString().slice(0, 13)}:00`,
  });
  const body = h('div', { id: 'log-window' });
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Log window' },
    field('Source', source),
    field('Hour (UTC)', hour),
    h('button', { type: 'submit', id: 'read-logs' }, 'Read the hour'),
  );
  form.append(
    stepButton(form, hour, -1, '‹ Earlier', 'log-earlier'),
    stepButton(form, hour, 1, 'Later ›', 'log-later'),
  );
  const read = (): void => {
    clearError();
    readHour(body, source.value.trim(), shownHour(hour));
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const target = href({
      view: 'logs',
      source: source.value.trim(),
      // `YYYY-MM-DDThh`; the router drops one it cannot read (and opens on the current hour).
      hour: hour.value.slice(0, 13),
    });
    // Another hour or source is another URL (the router reads it); the same one is read again.
    if (target !== location.hash) location.hash = target;
    else read();
  });
  app.replaceChildren(
    heading('Logs'),
    h('p', { class: 'muted' }, 'Read one hour of log lines of a source, oldest first.'),
    form,
    body,
  );
  read();
}
