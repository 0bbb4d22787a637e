/**
 * Every department name, paged through `GET /departments` (admins only): the move's target list,
 * and the check a new department's name is free — an answer either way, where reading the
 * department itself would leave a 404 in the browser's console.
 */
import { api } from '../api';
import { state, type Page } from '../session';

/** Every department name (admins only). */
export async function allDepartments(): Promise<string[]> {
  const names: string[] = [];
  let token: string | null = null;
  do {
    const query = new URLSearchParams({ pageSize: '1000' });
    if (token) query.set('continuationToken', token);
    const page: Page<{ name: string }> = await api(
      state.session,
      'GET',
      `/departments?${query.toString()}`,
    );
    names.push(...page.items.map((d) => d.name));
    token = page.continuationToken;
  } while (token && names.length < 100_000);
  return names;
}
