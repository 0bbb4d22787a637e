/**
 * Which storage `npm start` uses, decided before anything starts.
 */
import { azuriteConnectionString } from '../../../../tools/azurite';
import { isStandardEmulator, planStorage } from '../../../../tools/host/launch';

const none = { blob: false, queue: false, table: false };
const all = { blob: true, queue: true, table: true };

describe('storage plan', () => {
  test('a real account is used as configured, whatever listens locally', () => {
    const env = {
      AzureWebJobsStorage: 'DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=a2V5',
    };
    expect(planStorage(env, all)).toEqual({
      kind: 'configured',
      description: 'AzureWebJobsStorage (account prod)',
    });
    expect(planStorage({ AzureWebJobsStorage__accountName: 'prod' }, none)).toMatchObject({
      kind: 'configured',
    });
  });

  test('an emulator on other ports (a test Azurite) counts as configured', () => {
    const env = {
      AzureWebJobsStorage: azuriteConnectionString({ blob: 20000, queue: 20001, table: 20002 }),
    };
    expect(planStorage(env, none).kind).toBe('configured');
  });

  test('the standard emulator, or nothing configured: reuse a running one, else start one', () => {
    for (const env of [
      {},
      { AzureWebJobsStorage: 'UseDevelopmentStorage=true' },
      { AzureWebJobsStorage: ' ' },
    ]) {
      expect(planStorage(env, all)).toEqual({ kind: 'reuseEmulator' });
      expect(planStorage(env, none)).toEqual({ kind: 'startEmulator' });
    }
  });

  test('some standard ports busy but not all: refuse rather than guess', () => {
    expect(planStorage({}, { blob: true, queue: false, table: true })).toEqual({
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
