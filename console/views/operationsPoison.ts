/**
 * The Operations page's poison queue buttons: Inspect lists a queue's poison messages, Replay
 * moves them back after a confirmation that survives the refreshes redrawing the table. Its own
 * module because the confirmation is state the page keeps between refreshes, and the page's loop
 * reads better without it.
 */
import { api, type Session } from '../api';
import { visibleControls } from '../text';
import { node, type PoisonQueue } from './operationsFigures';

/** What the buttons need from the page around them. */
export interface PoisonContext {
  session: Session;
  /** Runs `work`, showing what it throws in the console's alert box. */
  act(work: () => Promise<void>): Promise<void>;
  /** Where inspected messages and a replay's outcome show. */
  messages: HTMLElement;
  /** The figures the buttons are drawn in. */
  figures: HTMLElement;
  /** Reads the figures again (after a replay). */
  reload(): Promise<void>;
  /** Draws the last figures read again (a confirmation shown or withdrawn). */
  redraw(): void;
}

function button(
  text: string,
  queue: string,
  onClick: (queue: string) => Promise<void>,
  disabled = false,
): HTMLButtonElement {
  const made = node('button', { text, attrs: { type: 'button', 'data-queue': queue } });
  made.disabled = disabled;
  if (disabled) made.title = 'The poison queue is empty.';
  made.addEventListener('click', () => void onClick(queue));
  return made;
}

/** Shows up to 32 poison messages of `queue` in the page's messages box. */
async function inspect(page: PoisonContext, queue: string): Promise<void> {
  const peeked = await api<{
    items: { messageId: string; dequeueCount: number; body?: unknown; text?: string }[];
  }>(page.session, 'GET', `/operations/poison/${encodeURIComponent(queue)}?max=32`);
  page.messages.replaceChildren(
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
}

/** Moves up to 32 poison messages of `queue` back, says how many, and reads the figures again. */
async function replay(page: PoisonContext, queue: string): Promise<void> {
  const result = await api<{ moved: number }>(
    page.session,
    'POST',
    `/operations/poison/${encodeURIComponent(queue)}/replay`,
    { max: 32 },
  );
  page.messages.replaceChildren(
    node('p', {
      text: `Moved ${result.moved} message${result.moved === 1 ? '' : 's'} back to ${queue}.`,
      attrs: { id: 'replay-result' },
    }),
  );
  await page.reload();
}

/**
 * The buttons of each poison queue's row: Inspect, and Replay or its confirmation. Keeps which
 * queue's Replay awaits its confirmation across the refreshes that redraw the row.
 */
export function poisonControls(page: PoisonContext): (q: PoisonQueue) => Node[] {
  let confirming: string | undefined;
  const onInspect = (queue: string): Promise<void> => page.act(() => inspect(page, queue));
  const onReplay = (queue: string): Promise<void> => page.act(() => replay(page, queue));

  const confirmation = (q: PoisonQueue): Node[] => {
    const many =
      q.approximateCount === 1 ? 'the message' : `up to 32 of ~${q.approximateCount} messages`;
    const yes = button('Yes, replay', q.queue, async (queue) => {
      confirming = undefined;
      await onReplay(queue);
    });
    yes.className = 'danger';
    const no = button('Cancel', q.queue, async () => {
      confirming = undefined;
      page.redraw();
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

  const replayControl = (q: PoisonQueue): Node[] => {
    if (q.approximateCount === 0) return [button('Replay', q.queue, onReplay, true)];
    if (confirming === q.queue) return confirmation(q);
    return [
      button('Replay', q.queue, async (queue) => {
        confirming = queue;
        page.redraw();
        page.figures.querySelector<HTMLButtonElement>('button.danger')?.focus();
      }),
    ];
  };

  return (q) => [
    button('Inspect', q.queue, onInspect, q.approximateCount === 0),
    ...replayControl(q),
  ];
}
