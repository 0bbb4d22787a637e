/**
 * How the grouped delete cuts employees into transactions (pure): 2 operations per employee plus
 * one per review it lists, one per distinct last name of the group, within the budget left beside
 * the group's own operations (count shard, department, outbox rows).
 */
import { planDeleteGroups } from '../../../../src/directory/employees/deleteEmployeeVersions';

const employee = (lastName: string, reviews = 0) => ({ lastName, reviews });

// The budget the groups get: 98 (100, less the relocation fence's 2) less the group's own 4.
describe('planDeleteGroups', () => {
  it('puts 31 employees of distinct names in a group of 94 operations (3 each)', () => {
    const employees = Array.from({ length: 100 }, (_, i) => employee(`name${i}`));
    expect(planDeleteGroups(employees).map((g) => g.length)).toEqual([31, 31, 31, 7]);
  });

  it('shares the index operation of a name: 46 employees of one name fit 94 operations', () => {
    const employees = Array.from({ length: 100 }, () => employee('jones'));
    expect(planDeleteGroups(employees).map((g) => g.length)).toEqual([46, 46, 8]);
  });

  it('counts the reviews of each employee, and never splits an employee', () => {
    const groups = planDeleteGroups([employee('a', 30), employee('b', 30), employee('c', 30)]);
    expect(groups.map((g) => g.map((e) => e.lastName))).toEqual([['a', 'b'], ['c']]);
    for (const group of groups) {
      const names = new Set(group.map((e) => e.lastName)).size;
      expect(group.reduce((sum, e) => sum + 2 + e.reviews, names)).toBeLessThanOrEqual(94);
    }
  });

  it('plans nothing for no employees', () => {
    expect(planDeleteGroups([])).toEqual([]);
  });
});
