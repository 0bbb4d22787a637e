/**
 * The console's URLs: every view has one (in the fragment), parsing reads back what formatting
 * wrote — names with spaces, accents, `#` or `?` included — and anything else is "not found",
 * never a view of something else.
 */
import { href, parseRoute, type Route } from '../../../console/routes';

describe('console routes', () => {
  const routes: Route[] = [
    { view: 'home' },
    { view: 'departments' },
    { view: 'department', department: 'Human Resources' },
    { view: 'department', department: 'R&D #1?' },
    { view: 'employee', department: 'Sales', employeeId: '000042' },
    { view: 'search', lastName: "O'Brien-Łukasz" },
    { view: 'search', lastName: '' },
    { view: 'logs' },
    { view: 'logs', source: 'web app', hour: '2026-12-07T13' },
    { view: 'departments', pages: 3 },
    { view: 'department', department: 'Sales', pages: 2 },
    { view: 'search', lastName: 'Jones', pages: 4 },
    { view: 'operations' },
  ];

  it.each(routes)('reads back what it wrote: %o', (route) => {
    expect(parseRoute(href(route))).toEqual(route);
  });

  it('reads the fragment with or without its #, and an empty one as home', () => {
    expect(parseRoute('')).toEqual({ view: 'home' });
    expect(parseRoute('#')).toEqual({ view: 'home' });
    expect(parseRoute('#/')).toEqual({ view: 'home' });
    expect(parseRoute('/departments/Sales')).toEqual({ view: 'department', department: 'Sales' });
    expect(href({ view: 'department', department: 'Human Resources' })).toBe(
      '#/departments/Human%20Resources',
    );
  });

  it("keeps a list's pages and a log window in the query, ignoring what does not parse", () => {
    expect(href({ view: 'department', department: 'Sales', pages: 1 })).toBe('#/departments/Sales');
    expect(parseRoute('#/departments/Sales?pages=abc')).toEqual({
      view: 'department',
      department: 'Sales',
    });
    expect(parseRoute('#/departments?pages=999')).toEqual({ view: 'departments', pages: 50 });
    expect(parseRoute('#/logs?source=web&hour=2026-12-07T25')).toEqual({
      view: 'logs',
      source: 'web',
    });
    expect(parseRoute('#/logs?hour=2026-12-07T09')).toEqual({
      view: 'logs',
      hour: '2026-12-07T09',
    });
  });

  it('answers "not found" for paths it does not know or cannot decode', () => {
    for (const hash of [
      '#/nope',
      '#/departments/Sales/people',
      '#/departments/Sales/employees',
      '#/departments/Sales/employees/000001/extra',
      '#/departments/%E0%A4%A',
      '#/logs/more',
      '#/departments//employees/1',
    ]) {
      expect(parseRoute(hash).view).toBe('notFound');
    }
  });
});
