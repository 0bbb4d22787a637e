/**
 * Whose emulator listens on the ports `npm start` wants. A checkout that starts Azurite (`npm
 * start`, `npm run azurite`) records its process and ports in `.azurite/emulator.json`; `npm
 * start` reuses a running emulator only when that record names it, so a second checkout never
 * writes into the first one's data. When another process holds the ports, the launcher names it
 * (Linux: from /proc; elsewhere it says only that the ports are taken).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AzuritePorts } from '../azurite';

/** The record's name in the emulator's data folder. */
const OWNER_FILE = 'emulator.json';

/** A process holding a port: its id and command line. */
export interface PortHolder {
  pid: number;
  command: string;
}

/** Records that `pid` is this data folder's emulator, on `ports`. */
export function recordEmulator(location: string, pid: number, ports: AzuritePorts): void {
  fs.writeFileSync(path.join(location, OWNER_FILE), JSON.stringify({ pid, ports }) + '\n');
}

/**
 * True when the emulator on `ports` is the one this data folder records: the record's ports, its
 * process alive, and (where the holder can be found) that process listening on the blob port.
 */
export function isOwnEmulator(location: string, ports: AzuritePorts): boolean {
  let record: { pid?: unknown; ports?: Partial<AzuritePorts> };
  try {
    record = JSON.parse(fs.readFileSync(path.join(location, OWNER_FILE), 'utf8')) as typeof record;
  } catch {
    return false;
  }
  const { pid } = record;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  const same = (['blob', 'queue', 'table'] as const).every((s) => record.ports?.[s] === ports[s]);
  if (!same || !isAlive(pid)) return false;
  const holder = portHolder(ports.blob);
  return holder === undefined || holder.pid === pid;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The process listening on TCP `port` on this machine, from /proc (Linux); `undefined` elsewhere
 * or when it cannot be told (another user's process).
 */
export function portHolder(port: number, proc = '/proc'): PortHolder | undefined {
  const inodes = listeningInodes(port, proc);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = fs.readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(path.join(proc, pid, 'fd'));
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(path.join(proc, pid, 'fd', fd));
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return { pid: Number(pid), command: commandOf(proc, pid) };
    }
  }
  return undefined;
}

/** Socket inodes listening on `port` (state 0A in /proc/net/tcp and tcp6). */
function listeningInodes(port: number, proc: string): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(proc, 'net', table), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) {
        inodes.add(fields[9]);
      }
    }
  }
  return inodes;
}

function commandOf(proc: string, pid: string): string {
  try {
    const raw = fs.readFileSync(path.join(proc, pid, 'cmdline'), 'utf8');
    const command = raw.split('\0').filter(Boolean).join(' ');
    return command.length > 160 ? `${command.slice(0, 157)}...` : command;
  } catch {
    return 'unknown command';
  }
}
