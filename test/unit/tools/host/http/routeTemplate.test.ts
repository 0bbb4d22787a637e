/**
 * Route templates in ASP.NET syntax: what parses, what is refused and how paths match.
 */
import {
  matchRoute,
  parseRouteTemplate,
  splitPath,
} from '../../../../../tools/host/http/routeTemplate';

function match(template: string, path: string): Record<string, string> | undefined {
  return matchRoute(parseRouteTemplate(template), splitPath(path));
}

describe('parsing', () => {
  test.each([
    ['departments/{a}{b}', /two consecutive parameters/],
    ['departments//employees', /cannot appear consecutively/],
    ['files/{*rest}/more', /catch-all parameter 'rest' must be the whole last segment/],
    ['files/x{*rest}', /catch-all parameter 'rest' must be the whole last segment/],
    ['a/{b?}/c', /optional parameter must be followed only by optional parameters/],
    ['a/{id:integer}', /constraint reference 'integer' could not be resolved/],
    ['a/{id}/{ID}', /parameter 'ID' appears more than once/],
    ['a/{id', /'\{' without a matching '\}'/],
    ['a/id}', /'\}' without a matching '\{'/],
    ['a?b', /cannot contain '\?'/],
    ['a/{}', /no valid parameter name/],
    ['a/{id?=3}', /could not be parsed|cannot have a default/],
    ['a/{*rest?}', /cannot be marked optional/],
    ['a/{id:min(x)}', /needs 1 whole-number argument/],
    ['a/{id:regex([)}', /not a valid regular expression/],
    ['a/{name}.{ext?}', /not supported by the local host/],
  ])('refuses %s', (template, reason) => {
    expect(() => parseRouteTemplate(template)).toThrow(reason);
  });

  test('trims outer slashes and keeps the text', () => {
    expect(parseRouteTemplate('/departments/{dept}/').text).toBe('departments/{dept}');
    expect(parseRouteTemplate('').segments).toEqual([]);
  });
});

describe('matching', () => {
  test('literal segments ignore case; parameter values keep theirs', () => {
    expect(match('Departments/{dept}', 'departments/SalesEast')).toEqual({ dept: 'SalesEast' });
    expect(match('departments/{dept}', 'teams/Sales')).toBeUndefined();
  });

  test('a path with more or fewer segments does not match', () => {
    expect(match('a/{b}', 'a/x/y')).toBeUndefined();
    expect(match('a/{b}', 'a')).toBeUndefined();
    expect(match('a/{b}', 'a/')).toBeUndefined();
  });

  test('segments are percent-decoded, except an encoded slash, which never splits a segment', () => {
    expect(match('d/{dept}', 'd/Sales%20East')).toEqual({ dept: 'Sales East' });
    expect(match('d/{dept}', 'd/R%26D%2FLabs')).toEqual({ dept: 'R&D%2FLabs' });
    expect(match('d/{dept}', 'd/%E4%BA%BA%E4%BA%8B')).toEqual({ dept: '人事' });
    expect(match('d/{dept}', 'd/100%')).toEqual({ dept: '100%' });
  });

  test('optional and defaulted parameters', () => {
    expect(match('e/{a}/{b?}', 'e/1')).toEqual({ a: '1' });
    expect(match('e/{a}/{b?}', 'e/1/2')).toEqual({ a: '1', b: '2' });
    expect(match('p/{page=1}', 'p')).toEqual({ page: '1' });
    expect(match('p/{page=1}', 'p/7')).toEqual({ page: '7' });
  });

  test('catch-all takes the rest of the path, or nothing', () => {
    expect(match('files/{*path}', 'files/a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    expect(match('files/{**path}', 'files')).toEqual({});
    expect(match('files/{*path:minlength(3)}', 'files/ab')).toBeUndefined();
  });

  test.each([
    ['{id:int}', '42', true],
    ['{id:int}', '-7', true],
    ['{id:int}', '2147483648', false],
    ['{id:int}', '4x', false],
    ['{id:long}', '9223372036854775807', true],
    ['{id:long}', '9223372036854775808', false],
    ['{b:bool}', 'TRUE', true],
    ['{b:bool}', 'yes', false],
    ['{g:guid}', '6f9619ff-8b86-d011-b42d-00c04fc964ff', true],
    ['{g:guid}', 'not-a-guid', false],
    ['{d:datetime}', '2024-02-29', true],
    ['{d:datetime}', 'yesterday', false],
    ['{n:double}', '1.5e3', true],
    ['{n:decimal}', '1.5e3', false],
    ['{s:alpha}', 'Sales', true],
    ['{s:alpha}', 'Sales1', false],
    ['{s:minlength(3)}', 'ab', false],
    ['{s:maxlength(3)}', 'abcd', false],
    ['{s:length(2,3)}', 'abc', true],
    ['{s:length(2)}', 'abc', false],
    ['{n:min(10)}', '9', false],
    ['{n:max(10)}', '10', true],
    ['{n:range(1,5)}', '6', false],
    ['{n:int:range(1,5)}', '3', true],
    ['{id:regex(^\\d{{6}}$)}', '000223', true],
    ['{id:regex(^\\d{{6}}$)}', '00022', false],
    ['{code:regex(^(ab|cd)$):minlength(2)}', 'CD', true],
  ])('%s against %s: %s', (template, value, expected) => {
    expect(match(`x/${template}`, `x/${value}`) !== undefined).toBe(expected);
  });

  test('complex segments bind literals to their last occurrence, as ASP.NET matches right to left', () => {
    expect(match('f/{name}.{ext}', 'f/archive.tar.gz')).toEqual({ name: 'archive.tar', ext: 'gz' });
    expect(match('f/{name}.{ext}', 'f/README')).toBeUndefined();
    expect(match('v{major:int}', 'V2')).toEqual({ major: '2' });
  });

  test('doubled braces are literal braces', () => {
    expect(match('lit/{{x}}', 'lit/{x}')).toEqual({});
  });
});
