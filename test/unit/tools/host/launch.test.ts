/**
 * What `npm start` decides before starting anything: which storage to use, and whether Core
 * Tools are installed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { azuriteConnectionString } from '../../../../tools/azurite';
import { findOnPath, isStandardEmulator, planStorage } from '../../../../tools/host/launch';

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

describe('finding Core Tools', () => {
  test('finds an executable on PATH, ignoring directories and non-executables', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'path-'));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'path-'));
    fs.mkdirSync(path.join(other, 'func'));
    fs.writeFileSync(path.join(dir, 'func'), '#!/bin/sh\n', { mode: 0o644 });
    const pathVariable = [other, dir].join(path.delimiter);
    expect(findOnPath('func', pathVariable, 'linux')).toBeUndefined();
    fs.chmodSync(path.join(dir, 'func'), 0o755);
    expect(findOnPath('func', pathVariable, 'linux')).toBe(path.join(dir, 'func'));
    expect(findOnPath('func', undefined, 'linux')).toBeUndefined();
    fs.rmSync(dir, { recursive: true });
    fs.rmSync(other, { recursive: true });
  });
});
