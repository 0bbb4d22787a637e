/**
 * What a measurement ran on, recorded beside its figures so a report can say it: the machine
 * (cores, memory, load), Node, the emulator (Azurite's version and whether the project's patch of
 * its table store is applied) and the code (commit, and whether the tree had uncommitted changes).
 * The bench run (`bench/results*.json`) and the real-size scenario both write it.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The embedded emulator as installed. */
export interface EmulatorInfo {
  /** `azurite`'s version in node_modules (`unknown` when it is not installed). */
  version: string;
  /** Whether its table store differs from the published release (`azurite-unpatched`). */
  patched: boolean;
  /** The patch file of patches/ for that version, and the first 12 hex digits of its SHA-256. */
  patch?: { file: string; sha256: string };
}

/** The commit the measured code was built from. */
export interface CommitInfo {
  sha: string;
  /** Tracked files differed from the commit when the run started. */
  dirty: boolean;
}

export interface RunEnvironment {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  /** 1, 5 and 15-minute load averages when recorded: near the core count means a busy machine. */
  loadAverage: number[];
  azurite: EmulatorInfo;
  commit?: CommitInfo;
}

/** The file the patch changes; comparing it tells a patched install from a published one. */
const PATCHED_FILE = path.join('dist', 'src', 'table', 'persistence', 'LokiTableMetadataStore.js');

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Azurite as installed under `root`/node_modules, and the project's patch of it. */
export function emulatorInfo(root: string): EmulatorInfo {
  const modules = path.join(root, 'node_modules');
  const manifest = readIfExists(path.join(modules, 'azurite', 'package.json'));
  const version = manifest
    ? String((JSON.parse(manifest.toString('utf8')) as { version?: unknown }).version)
    : 'unknown';
  const installed = readIfExists(path.join(modules, 'azurite', PATCHED_FILE));
  const published = readIfExists(path.join(modules, 'azurite-unpatched', PATCHED_FILE));
  const info: EmulatorInfo = {
    version,
    patched: installed !== undefined && published !== undefined && !installed.equals(published),
  };
  const patchFile = path.join('patches', `azurite+${version}.patch`);
  const patch = readIfExists(path.join(root, patchFile));
  if (patch)
    info.patch = {
      file: patchFile,
      sha256: createHash('sha256').update(patch).digest('hex').slice(0, 12),
    };
  return info;
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** HEAD of the checkout at `root`; `undefined` outside a git checkout. */
export function commitInfo(root: string): CommitInfo | undefined {
  const sha = git(root, ['rev-parse', 'HEAD']);
  if (!sha) return undefined;
  const status = git(root, ['status', '--porcelain', '--untracked-files=no']);
  return { sha, dirty: status !== undefined && status !== '' };
}

/**
 * The checkout a bench file runs in: the nearest folder above `from` with a package.json (bench/
 * through @swc-node/register, dist/bench/ after a build).
 */
export function projectRoot(from: string): string {
  let dir = path.resolve(from);
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from);
    dir = parent;
  }
  return dir;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** This machine, this Node, the emulator and the commit of the checkout at `root`. */
export function runEnvironment(root: string): RunEnvironment {
  const cpus = os.cpus();
  const commit = commitInfo(root);
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: round1(os.totalmem() / 1024 ** 3),
    loadAverage: os.loadavg().map(round1),
    azurite: emulatorInfo(root),
    ...(commit && { commit }),
  };
}
