/**
 * Who may drive the local host: Host names (DNS rebinding), how origins of writes are read, and
 * the stricter rule of the admin API and Durable webhooks, with awkward input.
 */
import {
  hostRefusal,
  isJsonContentType,
  isLoopbackHostname,
  isUnsafeMethod,
  localWriteRefusal,
  parseHost,
  parseOrigin,
} from '../../../../../tools/host/http/requestGuard';

const loopback = { listenAddress: '127.0.0.1' };
const noMachine = (): string[] => {
  throw new Error('the machine names are asked only when listening on every interface');
};

describe('Host header', () => {
  test('normalises names, addresses and ports as URLs do', () => {
    expect(parseHost('LocalHost:7071')).toEqual({ hostname: 'localhost', host: 'localhost:7071' });
    expect(parseHost('127.1')).toEqual({ hostname: '127.0.0.1', host: '127.0.0.1' });
    expect(parseHost('0x7f.0.0.1:80')).toEqual({ hostname: '127.0.0.1', host: '127.0.0.1' });
    expect(parseHost('[0:0::1]:7071')).toEqual({ hostname: '[::1]', host: '[::1]:7071' });
    expect(parseHost('::1')).toEqual({ hostname: '[::1]', host: '[::1]' });
    expect(parseHost('fe80::1')?.hostname).toBe('[fe80::1]');
  });

  test('anything but name[:port] is not a host', () => {
    for (const value of [
      undefined,
      '',
      ' ',
      'evil.example@127.0.0.1',
      '127.0.0.1/x',
      '127.0.0.1:7071, evil.example',
      '127.0.0.1:99999',
      '127.0.0.1:',
      'localhost:-1',
      '[::1',
      '[::g]',
      'a:b:c',
      'bücher.example',
      '127.0.0.1 ',
    ]) {
      expect(parseHost(value)).toBeUndefined();
    }
  });

  test('loopback names: localhost, 127.0.0.0/8 and [::1], nothing that merely looks like them', () => {
    for (const name of ['localhost', '127.0.0.1', '127.255.3.4', '[::1]'])
      expect(isLoopbackHostname(name)).toBe(true);
    for (const name of [
      'localhost.',
      'localhost.evil.example',
      'evil.localhost',
      '127.0.0.1.nip.io',
      '128.0.0.1',
      '0.0.0.0',
      '[::]',
      '[::ffff:7f00:1]',
    ])
      expect(isLoopbackHostname(name)).toBe(false);
  });

  test('loopback names pass with any port, whatever the listen address', () => {
    for (const host of [
      'localhost',
      'localhost:7071',
      'LOCALHOST:1',
      '127.0.0.1:7071',
      '127.0.0.2',
      '[::1]:7071',
      '127.1:7071',
    ]) {
      expect(hostRefusal(host, loopback)).toBeUndefined();
      expect(
        hostRefusal(host, { listenAddress: '0.0.0.0', machineNames: () => [] }),
      ).toBeUndefined();
    }
  });

  test('a foreign or malformed Host gets 421 MisdirectedRequest, and so does none', () => {
    for (const host of [
      'evil.example:7071',
      'evil.example',
      '127.0.0.1.nip.io:7071',
      'localhost.:7071',
      '192.168.1.5:7071',
      '0.0.0.0:7071',
      'evil.example@localhost',
      'x'.repeat(500),
      undefined,
    ]) {
      const refusal = hostRefusal(host, { ...loopback, machineNames: noMachine });
      expect(refusal).toMatchObject({ status: 421, code: 'MisdirectedRequest' });
      expect(refusal!.message.length).toBeLessThan(400);
    }
  });

  test('the listen address and --allowed-host names pass; a wildcard address lets in the machine', () => {
    expect(hostRefusal('192.168.1.5:7071', { listenAddress: '192.168.1.5' })).toBeUndefined();
    expect(hostRefusal('[fe80::1]:7071', { listenAddress: 'fe80::1' })).toBeUndefined();
    expect(hostRefusal('dev.lan:7071', { listenAddress: 'Dev.LAN' })).toBeUndefined();
    const allowed = { ...loopback, allowedHosts: ['tunnel.example:443', 'Box'] };
    expect(hostRefusal('tunnel.example', allowed)).toBeUndefined();
    expect(hostRefusal('box:7071', allowed)).toBeUndefined();
    expect(hostRefusal('other.example', allowed)?.status).toBe(421);

    const everywhere = {
      listenAddress: '0.0.0.0',
      machineNames: () => ['devbox', '10.0.0.7', 'fe80::1', '127.0.0.1'],
    };
    expect(hostRefusal('devbox:7071', everywhere)).toBeUndefined();
    expect(hostRefusal('10.0.0.7:7071', everywhere)).toBeUndefined();
    expect(hostRefusal('[fe80::1]:7071', everywhere)).toBeUndefined();
    expect(hostRefusal('10.0.0.8:7071', everywhere)?.status).toBe(421);
    expect(hostRefusal('0.0.0.0:7071', everywhere)?.status).toBe(421);
    expect(hostRefusal('devbox:7071', { ...everywhere, listenAddress: '::' })).toBeUndefined();
  });
});

describe('Origin of writes', () => {
  test('only GET, HEAD, OPTIONS and TRACE are safe', () => {
    for (const method of ['GET', 'head', 'OPTIONS', 'TRACE', undefined])
      expect(isUnsafeMethod(method)).toBe(false);
    for (const method of ['POST', 'put', 'PATCH', 'DELETE', 'PROPFIND', ''])
      expect(isUnsafeMethod(method)).toBe(true);
  });

  test('an Origin is read only in the exact form browsers send', () => {
    expect(parseOrigin('http://127.0.0.1:7071')).toEqual({
      protocol: 'http:',
      hostname: '127.0.0.1',
      host: '127.0.0.1:7071',
    });
    expect(parseOrigin('http://[::1]:7071')?.hostname).toBe('[::1]');
    for (const value of [
      'null',
      '',
      'http://127.0.0.1:7071/',
      'http://LOCALHOST:7071',
      'http://127.0.0.1:80',
      'http://127.0.0.1:7071, http://evil.example',
      'http://user@127.0.0.1:7071',
      '127.0.0.1:7071',
      'file://',
    ])
      expect(parseOrigin(value)).toBeUndefined();
  });
});

describe('admin API and Durable webhooks', () => {
  test('JSON bodies only; no body needs no type', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    for (const type of [
      undefined,
      '',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/problem+json',
    ])
      expect(isJsonContentType(type)).toBe(false);
    expect(localWriteRefusal('POST', { 'content-type': 'text/plain' }, 2)).toMatchObject({
      status: 415,
      code: 'UnsupportedMediaType',
    });
    expect(localWriteRefusal('POST', {}, 2)?.status).toBe(415);
    expect(localWriteRefusal('POST', { 'content-type': 'application/json' }, 2)).toBeUndefined();
    expect(localWriteRefusal('DELETE', {}, 0)).toBeUndefined();
    expect(localWriteRefusal('GET', { 'content-type': 'text/plain' }, 2)).toBeUndefined();
  });

  test('only a loopback or absent Origin may write', () => {
    const json = { 'content-type': 'application/json' };
    for (const origin of ['http://127.0.0.1:7071', 'http://localhost:3000', 'http://[::1]:1'])
      expect(localWriteRefusal('POST', { ...json, origin }, 2)).toBeUndefined();
    for (const origin of ['http://192.168.1.5:7071', 'null', 'http://localhost.evil.example'])
      expect(localWriteRefusal('POST', { ...json, origin }, 2)).toMatchObject({
        status: 403,
        code: 'CrossSiteRequest',
      });
    expect(localWriteRefusal('POST', { ...json, 'sec-fetch-site': 'cross-site' }, 0)?.status).toBe(
      403,
    );
  });
});
