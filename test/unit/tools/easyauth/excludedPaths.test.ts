import { isExcludedPath, normalizeRequestTarget } from '../../../../tools/easyauth/excludedPaths';

const SETTINGS = ['/api/health', '/api/openapi.json', '/api/console', '/api/console/*'];

/** Whether a raw request target is let through unauthenticated, as the front decides it. */
const excluded = (target: string): boolean => {
  const normalized = normalizeRequestTarget(target);
  return normalized !== undefined && isExcludedPath(SETTINGS, normalized.pathname);
};

describe('excluded paths', () => {
  it.each([
    ['/api/health', true],
    ['/api/health?probe=1', true],
    ['/API/Health', true],
    ['/api/%68ealth', true],
    ['/api/health/', false],
    ['/api/healthz', false],
    ['/api/health/x', false],
    ['/api/console', true],
    ['/api/console/', true],
    ['/api/console/main.js', true],
    ['/api/Console/Assets/App.js', true],
    ['/api/consoleX', false],
    ['/api/console.js', false],
    ['/api/console%2Fmain.js', false],
    ['/api/console/..%2F..%2Fpackage.json', true],
    ['/api/console/../departments', false],
    ['/api/console/%2e%2e/departments', false],
    ['/api/console/%2E%2E/%2e%2e/api/departments', false],
    ['/api/console\\..\\departments', false],
    ['/api/departments/../health', true],
    ['/api/./health', true],
    ['/api/departments', false],
    ['/', false],
  ])('%s → %s', (target, expected) => {
    expect(excluded(target)).toBe(expected);
  });

  it('treats only a final /* as a wildcard', () => {
    expect(isExcludedPath(['/api/*/health'], '/api/x/health')).toBe(false);
    expect(isExcludedPath(['/api/*/health'], '/api/*/health')).toBe(true);
    expect(isExcludedPath(['/api/con*'], '/api/console')).toBe(false);
    expect(isExcludedPath(['/*'], '/anything/at/all')).toBe(true);
    expect(isExcludedPath([], '/api/health')).toBe(false);
  });

  it('compares encoded reserved characters as encoded, in any hex case', () => {
    expect(isExcludedPath(['/api/a%2fb'], '/api/a%2Fb')).toBe(true);
    expect(isExcludedPath(['/api/a%2Fb'], '/api/a/b')).toBe(false);
  });
});

describe('request target normalisation', () => {
  it('resolves dot segments, keeps encoded slashes and the query', () => {
    expect(normalizeRequestTarget('/api/console/../departments?x=1')).toEqual({
      pathname: '/api/departments',
      search: '?x=1',
    });
    expect(normalizeRequestTarget('/api/console/..%2Fx')?.pathname).toBe('/api/console/..%2Fx');
  });

  it('keeps a leading // as a path, not a host', () => {
    expect(normalizeRequestTarget('//evil.example/api/health')?.pathname).toBe(
      '//evil.example/api/health',
    );
  });

  it.each(['http://evil.example/api/health', '*', '', 'api/health'])(
    'refuses the target %j (not origin form)',
    (target) => {
      expect(normalizeRequestTarget(target)).toBeUndefined();
    },
  );
});
