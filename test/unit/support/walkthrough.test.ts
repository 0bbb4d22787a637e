/**
 * The README walkthrough's reader and its loose comparison: what counts as a step and its output,
 * and that a wrong output is caught (ids, times and tokens may differ; nothing else may).
 */
import fs from 'node:fs';
import path from 'node:path';
import { jsonMismatch, outputMismatch, walkthroughSteps } from '../../support/walkthrough';

const fence = '```';

describe('reading the steps', () => {
  const readme = [
    '# Title',
    `${fence}bash\nnpm start\n${fence}`,
    '<!-- walkthrough: run in CI -->',
    'One:',
    `${fence}bash\necho '{"a":1}'\n${fence}`,
    'prose between',
    `${fence}json\n{ "a": 1 }\n${fence}`,
    `${fence}bash\ntrue\n${fence}`,
    `${fence}bash\necho hi\n${fence}`,
    `${fence}text\nhi\n${fence}`,
    '<!-- /walkthrough -->',
    `${fence}bash\nnot a step\n${fence}`,
  ].join('\n');

  it('takes the bash blocks between the markers, each with the output block after it', () => {
    expect(walkthroughSteps(readme)).toEqual([
      { index: 1, commands: `echo '{"a":1}'\n`, expected: { kind: 'json', text: '{ "a": 1 }\n' } },
      { index: 2, commands: 'true\n' },
      { index: 3, commands: 'echo hi\n', expected: { kind: 'text', text: 'hi\n' } },
    ]);
  });

  it('refuses a README without markers, or an output that follows no step', () => {
    expect(() => walkthroughSteps('# no walkthrough')).toThrow('no walkthrough markers');
    expect(() =>
      walkthroughSteps(`<!-- walkthrough -->\n${fence}json\n{}\n${fence}\n<!-- /walkthrough -->`),
    ).toThrow('follows no step');
  });

  it("finds the project README's steps, most with an output to compare", () => {
    const steps = walkthroughSteps(
      fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8'),
    );
    expect(steps.length).toBeGreaterThanOrEqual(9);
    expect(steps.filter((s) => s.expected).length).toBeGreaterThanOrEqual(9);
  });
});

describe('comparing outputs loosely', () => {
  it('lets … stand for any text, and the README leave fields out', () => {
    const expected = { id: '…', url: 'http://x/…?…sp=c…', items: [{ a: 1 }], n: null };
    const actual = {
      id: 'abc',
      url: 'http://x/p/q?sv=1&sp=c&sig=z',
      items: [{ a: 1, b: 2 }],
      n: null,
      more: 1,
    };
    expect(jsonMismatch(expected, actual)).toBeUndefined();
  });

  it.each([
    [{ a: 1 }, { a: 2 }, '$.a: expected 1, got 2'],
    [{ a: 1 }, {}, '$.a: missing'],
    [{ a: [1] }, { a: [1, 2] }, '$.a: expected 1 items, got 2'],
    [{ url: 'http://x/…?…sp=c…' }, { url: 'http://x/p?sp=r' }, '$.url: expected'],
    [{ a: 'x' }, { a: 1 }, '$.a: expected "x", got 1'],
    [{ o: {} }, { o: [] }, '$.o: expected an object'],
  ])('catches %j against %j', (expected, actual, problem) => {
    expect(jsonMismatch(expected, actual)).toContain(problem);
  });

  it('compares text line by line, … within a line, ignoring carriage returns', () => {
    const expected = { kind: 'text' as const, text: '201\n{"id":"…"}\nallow: GET\n' };
    expect(outputMismatch(expected, '201\n{"id":"7"}\nallow: GET\r\n')).toBeUndefined();
    expect(outputMismatch(expected, '400\n{"id":"7"}\nallow: GET')).toContain('line 1');
    expect(outputMismatch(expected, '201\n{"id":"7"}')).toContain('expected 3 lines, got 2');
  });

  it('wants JSON where the README shows JSON', () => {
    expect(outputMismatch({ kind: 'json', text: '{"a":1}' }, 'not json')).toContain('not JSON');
  });
});
