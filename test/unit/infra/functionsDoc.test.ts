/**
 * docs/functions.md lists every function the app registers, under the entry point that registers
 * it, with its trigger and its route, queue or schedule: `npm start` prints only a count and
 * points there, so the page must not fall behind the registrations.
 */
import { readRepoFile } from './bicep';
import { registeredFunctions, type RegisteredFunction } from './registrations';

const TRIGGER_WORDS: Record<string, string> = {
  httptrigger: 'HTTP',
  queuetrigger: 'queue',
  timertrigger: 'timer',
  orchestrationtrigger: 'orchestration',
  activitytrigger: 'activity',
  entitytrigger: 'entity',
};

/** The row the page should have for a function (prettier pads cells; spaces are collapsed). */
function expectedRow(fn: RegisteredFunction): string {
  const trigger = fn.trigger!;
  const kind = TRIGGER_WORDS[trigger.type.toLowerCase()] ?? trigger.type;
  const raw = trigger as unknown as { queueName?: string; schedule?: string };
  const what =
    kind === 'HTTP'
      ? `\`${(trigger.methods ?? []).map((m) => m.toUpperCase()).join(' ')} /api/${trigger.route}\``
      : kind === 'queue'
        ? `queue \`${raw.queueName}\``
        : kind === 'timer'
          ? `\`${raw.schedule}\` (UTC)`
          : 'Durable Functions ([orchestrations](orchestrations.md))';
  return `| \`${fn.name}\` | ${kind} | ${what} |`;
}

/** The page's function rows, by the entry point heading they sit under. */
function documentedRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  let file = '';
  for (const line of readRepoFile('docs/functions.md').split('\n')) {
    const heading = /^## `(functions\/[^`]+)`$/.exec(line);
    if (heading) file = heading[1]!;
    else if (/^\| `/.test(line)) {
      const row = line.replace(/ {2,}/g, ' ');
      rows.set(file, [...(rows.get(file) ?? []), row]);
    }
  }
  return rows;
}

it('has one row per registered function, under its entry point, saying what triggers it', () => {
  const functions = registeredFunctions();
  expect(functions.length).toBeGreaterThan(50);
  const expected = new Map<string, string[]>();
  for (const fn of functions)
    expected.set(fn.file, [...(expected.get(fn.file) ?? []), expectedRow(fn)]);
  const documented = documentedRows();
  expect(Object.fromEntries([...documented].sort())).toEqual(
    Object.fromEntries([...expected].sort()),
  );
});
