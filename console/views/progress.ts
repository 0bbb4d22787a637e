/**
 * Watching an orchestration from the page: it polls `GET /orchestrations/{id}` until the instance
 * ends, and says in plain words where it is, with a progress bar when the work has a known size.
 */
import { followOrchestration, type OrchestrationStatus } from '../api';
import { h, messageOf } from '../dom';
import { state } from '../session';

/** How a status reads to a person. */
function phase(status: OrchestrationStatus): string {
  switch (status.runtimeStatus) {
    case 'Pending':
      return 'Waiting to start';
    case 'Running':
    case 'ContinuedAsNew':
      return 'Working';
    case 'Completed':
      return 'Done';
    case 'Failed':
      return 'Failed';
    case 'Terminated':
    case 'Canceled':
      return 'Stopped';
    default:
      return status.runtimeStatus;
  }
}

/** What the watcher shows: the element, and a promise of the final status. */
export interface Watch {
  element: HTMLElement;
  done: Promise<OrchestrationStatus | undefined>;
}

/**
 * Follows the orchestration `id`. `describe` turns a status into a sentence and, when the size of
 * the work is known, a fraction done (0–1).
 */
export function watchOrchestration(
  id: string,
  describe: (status: OrchestrationStatus) => { text: string; fraction?: number },
): Watch {
  const bar = h('progress', { max: '1' });
  const line = h('p', { class: 'progress-line' }, 'Started…');
  const element = h(
    'div',
    { class: 'orchestration', 'data-orchestration': id, role: 'status', 'aria-live': 'polite' },
    line,
    bar,
  );
  const done = followOrchestration(
    state.session,
    id,
    (status) => {
      const { text, fraction } = describe(status);
      element.dataset.status = status.runtimeStatus;
      line.textContent = `${phase(status)}: ${text}`;
      if (status.runtimeStatus === 'Failed') element.classList.add('bad');
      if (fraction === undefined) bar.removeAttribute('value');
      else bar.value = Math.max(0, Math.min(1, fraction));
      if (status.runtimeStatus === 'Completed') bar.value = 1;
    },
    () => element.isConnected,
  ).catch((error: unknown) => {
    line.textContent = messageOf(error);
    element.classList.add('bad');
    return undefined;
  });
  return { element, done };
}
