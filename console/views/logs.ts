/** The admin's log window, read directly from blob storage with a logs SAS. */
import { api, readLogHour, hourPrefix, type SasGrant } from '../api';
import { clearError, h, loading } from '../dom';
import { state } from '../session';

/** The log window (admins only). */
export function logWindow(): HTMLElement {
  const section = h('section', { id: 'logs', class: 'wide' }, h('h2', {}, 'Log window'));
  const source = h('input', { id: 'log-source', name: 'source', value: 'web', required: true });
  const now = new Date();
  const hour = h('input', {
    id: 'log-hour',
    name: 'hour',
    type: 'datetime-local',
    step: '3600',
    value: `${now.toISOString().slice(0, 13)}:00`,
  });
  const body = h('div');
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Log window' },
    h('label', {}, 'Source', source),
    h('label', {}, 'Hour (UTC)', hour),
    h('button', { type: 'submit', id: 'read-logs' }, 'Read the hour'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearError();
    const at = new Date(`${hour.value.slice(0, 13)}:00:00Z`);
    void loading(body, 'the log window', async () => {
      const grant = await api<SasGrant>(state.session, 'POST', '/sas/logs', {});
      const { blobs, lines } = await readLogHour(grant, source.value.trim(), at);
      const endpoint = new URL(grant.url).host;
      body.replaceChildren(
        h(
          'p',
          { class: 'muted' },
          `${lines.length} line${lines.length === 1 ? '' : 's'} in ${blobs.length} blob${blobs.length === 1 ? '' : 's'} under ${hourPrefix(source.value.trim(), at)}`,
        ),
        h(
          'pre',
          { class: 'log', id: 'log-lines', tabindex: '0' },
          lines
            .map(
              (l) => `${l.entry.at.toISOString()} ${l.entry.level.padEnd(11)} ${l.entry.message}`,
            )
            .join('\n') || '(no lines)',
        ),
        h(
          'p',
          { class: 'source' },
          `Read from the blob endpoint ${endpoint} with a read+list SAS.`,
        ),
      );
    });
  });
  section.append(form, body);
  return section;
}
