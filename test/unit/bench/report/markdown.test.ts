/**
 * The report's Markdown pieces: figures as the docs quote them, tables padded as Prettier pads
 * them, paragraphs that never start a line with a block marker, and generated sections replaced
 * only between their own markers.
 */
import {
  bullets,
  count,
  duration,
  escapeText,
  figure,
  listing,
  markers,
  paragraph,
  replaceSection,
  table,
  utcMinute,
} from '../../../../bench/report/markdown';

describe('figures', () => {
  it('quotes counts, per-operation figures and durations briefly', () => {
    expect([20_000, 1_234.6].map(count)).toEqual(['20,000', '1,235']);
    expect([0, 4.3612, 0.42, 0.0026, 12.34, 1_800.4].map(figure)).toEqual([
      '0',
      '4.36',
      '0.42',
      '0.0026',
      '12.3',
      '1,800',
    ]);
    expect([1.94, 640.4, 2_650, 31_500, 1_680_000].map(duration)).toEqual([
      '1.9 ms',
      '640 ms',
      '2.65 s',
      '31.5 s',
      '1,680 s',
    ]);
    expect(utcMinute('2026-11-28T10:05:59.999Z')).toBe('2026-11-28 10:05 UTC');
    expect(() => utcMinute('yesterday')).toThrow(RangeError);
  });
});

describe('tables', () => {
  it('pads every column to its widest cell, escapes pipes and keeps a minimum of three dashes', () => {
    expect(
      table(
        ['a', 'Requests'],
        [
          ['p|b', '1'],
          ['longer cell', ''],
        ],
      ),
    ).toBe(
      [
        '| a           | Requests |',
        '| ----------- | -------- |',
        '| p\\|b        | 1        |',
        '| longer cell |          |',
      ].join('\n'),
    );
    expect(table(['', 'x'], [])).toBe('|     | x   |\n| --- | --- |');
  });

  it('counts characters such as × and → as one column, as Prettier does', () => {
    expect(table(['r'], [['100×'], ['a → b']])).toBe(
      ['| r     |', '| ----- |', '| 100×  |', '| a → b |'].join('\n'),
    );
  });
});

describe('text from a run', () => {
  it('escapes what Markdown would read as HTML, and flattens line breaks', () => {
    expect(escapeText('point query on email_<address>\nnext')).toBe(
      'point query on email_\\<address> next',
    );
    expect(table(['label'], [['a <b> | c']])).toContain('| a \\<b> \\| c |');
  });

  it('lists items in words', () => {
    expect([[], ['1,000'], ['1,000', '5,000'], ['1', '2', '3']].map(listing)).toEqual([
      '',
      '1,000',
      '1,000 and 5,000',
      '1, 2 and 3',
    ]);
  });
});

describe('paragraphs and lists', () => {
  it('wraps at the column limit without splitting words', () => {
    const text = paragraph('one two three four five six', 10);
    expect(text).toBe('one two\nthree four\nfive six');
  });

  it('never starts a line with something Markdown would read as a list, heading or quote', () => {
    const text = paragraph('aaaa bbbb - cccc 1. dddd # eeee > ffff', 9);
    for (const line of text.split('\n')) expect(line).not.toMatch(/^([-+*>#|]|\d+[.)])\s/);
  });

  it('indents the continuation lines of a bullet', () => {
    expect(bullets(['first item is long', 'second'], 12)).toBe('- first item\n  is long\n- second');
  });
});

describe('generated sections', () => {
  const { open, close } = markers('demo');
  const document = `# Title\n\nHand-written.\n\n${open}\n\nold figures\n\n${close}\n\nAfter.\n`;

  it('replaces only what lies between the section’s markers', () => {
    expect(replaceSection(document, 'demo', 'new figures\n')).toBe(
      `# Title\n\nHand-written.\n\n${open}\n\nnew figures\n\n${close}\n\nAfter.\n`,
    );
  });

  it('gives the same document when the content has not changed', () => {
    const once = replaceSection(document, 'demo', 'same');
    expect(replaceSection(once, 'demo', 'same')).toBe(once);
  });

  it('refuses missing, repeated or reversed markers', () => {
    expect(() => replaceSection('no markers', 'demo', 'x')).toThrow(/missing or out of order/);
    expect(() => replaceSection(`${close}\n${open}`, 'demo', 'x')).toThrow(/out of order/);
    expect(() => replaceSection(`${document}${open}\n${close}`, 'demo', 'x')).toThrow(
      /more than once/,
    );
  });
});
