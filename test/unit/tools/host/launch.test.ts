/**
 * Which storage `npm start` uses, and whether a local run believes hand-sent principals, decided
 * before anything starts.
 */
import { azuriteConnectionString } from '../../../../tools/azurite';
import {
  isLoopbackListenAddress,
  isStandardEmulator,
  planStorage,
  principalTrustFor,
} from '../../../../tools/host/launch';

const none = { blob: false, queue: false, table: false };
const all = { blob: true, queue: true, table: true };
const own = { own: true, reuse: false };

describe('storage plan', () => {
  test('a real account is used as configured, whatever listens locally', () => {
    const env = {
      AzureWebJobsStorage: 'DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=a2V5',
    };
    expect(planStorage(env, all, own)).toEqual({
      kind: 'configured',
      description: 'AzureWebJobsStorage (account prod)',
    });
    expect(planStorage({ AzureWebJobsStorage__accountName: 'prod' }, none, own)).toMatchObject({
      kind: 'configured',
    });
  });

  test('an emulator on other ports (a test Azurite) counts as configured', () => {
    const env = {
      AzureWebJobsStorage: azuriteConnectionString({ blob: 20000, queue: 20001, table: 20002 }),
    };
    expect(planStorage(env, none, own).kind).toBe('configured');
  });

  test("the standard emulator, or nothing configured: reuse this checkout's running one, else start one", () => {
    for (const env of [
      {},
      { AzureWebJobsStorage: 'UseDevelopmentStorage=true' },
      { AzureWebJobsStorage: ' ' },
    ]) {
      expect(planStorage(env, all, own)).toEqual({ kind: 'reuseEmulator' });
      expect(planStorage(env, none, own)).toEqual({ kind: 'startEmulator' });
    }
  });

  test("another checkout's (or anybody's) emulator is not reused unless asked", () => {
    expect(planStorage({}, all, { own: false, reuse: false })).toEqual({ kind: 'portsHeld' });
    expect(planStorage({}, all, { own: false, reuse: true })).toEqual({ kind: 'reuseEmulator' });
  });

  test('some standard ports busy but not all: refuse rather than guess', () => {
    expect(planStorage({}, { blob: true, queue: false, table: true }, own)).toEqual({
      kind: 'portsBusy',
      busy: ['blob', 'table'],
    });
  });

  test('the standard emulator is recognized in any spelling', () => {
    expect(isStandardEmulator('UseDevelopmentStorage=true')).toBe(true);
    expect(
      isStandardEmulator(
        azuriteConnectionString({ blob: 10000, queue: 10001, table: 10002 }, 'localhost'),
      ),
    ).toBe(true);
    expect(
      isStandardEmulator(azuriteConnectionString({ blob: 10000, queue: 10001, table: 10003 })),
    ).toBe(false);
    expect(isStandardEmulator('AccountName=devstoreaccount1;AccountKey=x')).toBe(false);
  });
});

describe('believing hand-sent principals', () => {
  test('loopback addresses, and only those, count as loopback', () => {
    for (const address of [undefined, '127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'])
      expect(isLoopbackListenAddress(address)).toBe(true);
    for (const address of ['0.0.0.0', '::', '192.168.1.5', '127.evil.example', 'devbox', '', 'x y'])
      expect(isLoopbackListenAddress(address)).toBe(false);
  });

  test('on loopback the setting stays as configured; npm start defaults it to true', () => {
    expect(
      principalTrustFor({ listenAddress: undefined, trustFlag: false, setting: undefined }),
    ).toEqual({ setting: undefined });
    expect(
      principalTrustFor({
        listenAddress: '127.0.0.1',
        trustFlag: false,
        setting: undefined,
        loopbackDefault: 'true',
      }),
    ).toEqual({ setting: 'true' });
    expect(
      principalTrustFor({
        listenAddress: 'localhost',
        trustFlag: false,
        setting: 'false',
        loopbackDefault: 'true',
      }),
    ).toEqual({ setting: 'false' });
  });

  test('on any other address they are not believed, even when the settings say true', () => {
    for (const setting of ['true', 'TRUE', undefined, '']) {
      const trust = principalTrustFor({
        listenAddress: '0.0.0.0',
        trustFlag: false,
        setting,
        loopbackDefault: 'true',
      });
      expect(trust.setting).toBe('false');
      expect(trust.message).toMatch(/not believed.*--trust-principal-headers/);
    }
    expect(
      principalTrustFor({ listenAddress: '192.168.1.5', trustFlag: false, setting: 'true' })
        .message,
    ).toMatch(/TRUST_LOCAL_PRINCIPAL_HEADER=true .* is overridden/);
  });

  test('--trust-principal-headers believes them there, with a loud warning', () => {
    const trust = principalTrustFor({
      listenAddress: '0.0.0.0',
      trustFlag: true,
      setting: 'false',
    });
    expect(trust.setting).toBe('true');
    expect(trust.message).toMatch(/^WARNING: .*anyone who can reach it can act as any user/);
    expect(
      principalTrustFor({ listenAddress: '127.0.0.1', trustFlag: true, setting: undefined }),
    ).toEqual({ setting: 'true' });
  });
});
