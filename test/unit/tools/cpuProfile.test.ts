/**
 * The CPU profile summary a profiled real-size run prints: the functions with the most samples of
 * their own, named by package path and line, same functions added up.
 */
import { cpuProfileNodeArgs, topSelfTime, type CpuProfile } from '../../../tools/cpuProfile';

const frame = (id: number, functionName: string, url = '', lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber },
});

describe('CPU profile summary', () => {
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)'),
      frame(2, '(idle)'),
      frame(3, 'findAnd', 'file:///w/node_modules/lokijs/src/lokijs.js', 3431),
      frame(4, 'evaluate', 'file:///w/node_modules/azurite/dist/src/table/x/EqualsNode.js', 9),
      // The same function reached by another path: one line.
      frame(5, 'findAnd', 'file:///w/node_modules/lokijs/src/lokijs.js', 3431),
      frame(6, '', 'file:///w/dist/src/directory/employees.js', 41),
    ],
    samples: [2, 3, 3, 5, 4, 3, 6, 2, 3, 5],
  };

  it('ranks functions by their own samples, as shares of all samples', () => {
    expect(topSelfTime(profile, 3)).toEqual([
      { frame: 'findAnd (lokijs/src/lokijs.js:3432)', share: 0.6 },
      { frame: '(idle)', share: 0.2 },
      { frame: 'evaluate (azurite/dist/src/table/x/EqualsNode.js:10)', share: 0.1 },
    ]);
    expect(topSelfTime(profile).at(-1)).toEqual({
      frame: '(anonymous) (dist/src/directory/employees.js:42)',
      share: 0.1,
    });
  });

  it('reads hit counts when a profile has no sample list', () => {
    const counted: CpuProfile = {
      nodes: [
        { ...frame(1, 'a'), hitCount: 3 },
        { ...frame(2, 'b'), hitCount: 1 },
      ],
    };
    expect(topSelfTime(counted)).toEqual([
      { frame: 'a', share: 0.75 },
      { frame: 'b', share: 0.25 },
    ]);
    expect(topSelfTime({ nodes: [] })).toEqual([]);
  });

  it("gives a child process Node's own flags to write its profile by name", () => {
    expect(cpuProfileNodeArgs('/tmp/p', 'emulator.cpuprofile')).toEqual([
      '--cpu-prof',
      '--cpu-prof-dir=/tmp/p',
      '--cpu-prof-name=emulator.cpuprofile',
    ]);
  });
});
