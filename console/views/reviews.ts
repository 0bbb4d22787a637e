/**
 * The employee's yearly reviews (compound key: one range query returns them by year), and for the
 * department's editors a form that writes one (`PUT .../reviews/{year}`; writing a year again
 * replaces that year's review).
 */
import { api } from '../api';
import { actionForm, field, h, input, loading, seg, stackRows } from '../dom';
import { settled } from '../settle';
import { state, type Page } from '../session';

interface Review {
  year: number;
  managerRating: number;
  peerRating: number;
  comments?: string;
}

function reviewTable(items: Review[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, 'No reviews yet.');
  const table = h(
    'table',
    { id: 'reviews-table', class: 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Year'),
        h('th', { scope: 'col', class: 'num', title: 'Manager rating, out of 10' }, 'Manager'),
        h('th', { scope: 'col', class: 'num', title: 'Peer rating, out of 10' }, 'Peers'),
        h('th', { scope: 'col' }, 'Comments'),
      ),
    ),
    h(
      'tbody',
      {},
      ...[...items]
        .reverse()
        .map((r) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, String(r.year)),
            h('td', { class: 'num' }, String(r.managerRating)),
            h('td', { class: 'num' }, String(r.peerRating)),
            h('td', {}, r.comments ?? ''),
          ),
        ),
    ),
  );
  stackRows(table);
  return h('div', {}, table, h('p', { class: 'muted' }, 'Ratings out of 10.'));
}

/** Renders the reviews, and the form when the caller may write one. */
export async function renderReviews(
  section: HTMLElement,
  path: string,
  mayWrite: boolean,
): Promise<void> {
  const body = h('div');
  section.append(body);
  const show = async (): Promise<void> => {
    const items: Review[] = [];
    let token: string | null = null;
    do {
      const query: string = token ? `?continuationToken=${seg(token)}` : '';
      const page: Page<Review> = await api(state.session, 'GET', `${path}/reviews${query}`);
      items.push(...page.items);
      token = page.continuationToken;
    } while (token);
    body.replaceChildren(reviewTable(items));
  };
  await loading(body, 'the reviews', show);
  if (!mayWrite) return;
  const rating = (name: string, id: string): HTMLInputElement =>
    input(name, {
      id,
      type: 'number',
      min: '0',
      max: '10',
      step: '0.5',
      required: true,
      inputmode: 'decimal',
    });
  const year = input('year', {
    id: 'review-year',
    type: 'number',
    min: '1900',
    max: '9999',
    required: true,
    value: String(new Date().getUTCFullYear()),
  });
  const manager = rating('managerRating', 'review-manager');
  const peer = rating('peerRating', 'review-peer');
  const comments = h('textarea', {
    name: 'comments',
    id: 'review-comments',
    rows: '3',
    maxlength: '4000',
  });
  const form = actionForm(
    { id: 'write-review', 'aria-label': 'Write a review', class: 'grid-form' },
    [
      field('Year', year),
      field('Manager rating (0–10)', manager),
      field('Peer rating (0–10)', peer),
      field('Comments', comments),
    ],
    'Save review',
    async () => {
      await api(state.session, 'PUT', `${path}/reviews/${seg(year.value)}`, {
        managerRating: Number(manager.value),
        peerRating: Number(peer.value),
        comments: comments.value,
      });
      settled(`Saved the review of ${year.value}.`);
    },
  );
  section.append(h('details', { class: 'panel-form' }, h('summary', {}, 'Write a review'), form));
}
