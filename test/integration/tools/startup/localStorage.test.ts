/**
 * `npm start` reuses a running emulator only when it is this checkout's own (recorded in
 * `.azurite/emulator.json` by the process that started it); anything else on the ports is named
 * (its process id and command line, from /proc) with how to pick other ports.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '../../../../tools/azurite';
import { isOwnEmulator, portHolder, recordEmulator } from '../../../../tools/startup/emulatorOwner';
import { LaunchError, prepareLocalStorage } from '../../../../tools/startup/localStorage';

const servers: net.Server[] = [];
let root: string;

/** Three ports this test process listens on: "an emulator" nobody recorded. */
async function listenOnThree(): Promise<{ blob: number; queue: number; table: number }> {
  const ports = [];
  for (let i = 0; i < 3; i++) {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    ports.push((server.address() as net.AddressInfo).port);
  }
  return { blob: ports[0]!, queue: ports[1]!, table: ports[2]! };
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'start-storage-'));
  fs.mkdirSync(path.join(root, '.azurite'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
  fs.rmSync(root, { recursive: true, force: true });
});

const linux = process.platform === 'linux' ? test : test.skip;

linux('finds the process that listens on a port', async () => {
  const { blob } = await listenOnThree();
  expect(portHolder(blob)).toMatchObject({
    pid: process.pid,
    command: expect.stringContaining('node') as unknown,
  });
  expect(portHolder(await freePort())).toBeUndefined();
});

test("an emulator is this checkout's only when its record names the live process on those ports", async () => {
  const ports = await listenOnThree();
  const location = path.join(root, '.azurite');
  expect(isOwnEmulator(location, ports)).toBe(false); // no record
  recordEmulator(location, process.pid, ports);
  expect(isOwnEmulator(location, ports)).toBe(true);
  expect(isOwnEmulator(location, { ...ports, table: ports.table + 1 })).toBe(false);
  // A record of a process that has exited (another run's Azurite, gone).
  const child = spawn(process.execPath, ['-e', '0']);
  const gone = await new Promise<number>((resolve) =>
    child.once('exit', () => resolve(child.pid!)),
  );
  recordEmulator(location, gone, ports);
  expect(isOwnEmulator(location, ports)).toBe(false);
});

linux(
  'refuses an emulator it did not start, naming the process and how to pick other ports',
  async () => {
    const ports = await listenOnThree();
    const request = { root, ports, reuse: false, apiPort: 7071 };
    const env: NodeJS.ProcessEnv = {};
    const refusal = await prepareLocalStorage(request, env).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(LaunchError);
    expect((refusal as Error).message).toContain(`process ${process.pid} (`);
    expect((refusal as Error).message).toContain('--emulator-ports');
    expect(env.AzureWebJobsStorage).toBeUndefined();
    // Recorded as this checkout's, it is reused: then probed (this one is no emulator: refused).
    recordEmulator(path.join(root, '.azurite'), process.pid, ports);
    const probed = await prepareLocalStorage(request, env).catch((e: unknown) => e);
    expect((probed as Error).message).toMatch(/does not answer like a storage emulator/);
  },
);
