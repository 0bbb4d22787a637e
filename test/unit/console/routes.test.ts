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
