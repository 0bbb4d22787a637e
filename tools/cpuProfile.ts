/**
 * CPU profiles of the local app and its emulator (`npm start -- --cpu-prof DIR`, used by
 * `npm run bench:real-size -- --cpu-prof DIR`): the app's own process profiles itself through
 * `node:inspector` until it stops; Azurite runs with Node's `--cpu-prof`. Both files are
 * `.cpuprofile` JSON, which Chrome DevTools (Performance) and VS Code open; {@link topSelfTime}
 * gives the few functions where the time went, for a report.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

/** The files a profiled run leaves in its folder. */
export const PROFILE_FILES = { app: 'app.cpuprofile', emulator: 'emulator.cpuprofile' } as const;

/** Node flags for a child process (the emulator) that writes `name` into `dir` when it exits. */
export function cpuProfileNodeArgs(dir: string, name: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`, `--cpu-prof-name=${name}`];
}

/** A profile of this process, running until {@link SelfProfile.stop}. */
export interface SelfProfile {
  /** Stops profiling and writes the profile to `file`. */
  stop(file: string): Promise<void>;
}

/**
 * Starts profiling this process's main thread (as `--cpu-prof` would, but written when the caller
 * says, before it exits).
 */
export async function startSelfProfile(): Promise<SelfProfile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
    },
  };
}

/** The part of a `.cpuprofile` the summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }[];
  samples?: number[];
}

/** One function's share of the samples taken. */
export interface SelfTime {
  /** `name (file:line)`, `(garbage collector)`, `(idle)`... */
  frame: string;
  /** Share of all samples, 0–1. */
  share: number;
}

function frameName({
  functionName,
  url,
  lineNumber,
}: CpuProfile['nodes'][number]['callFrame']): string {
  const name = functionName || '(anonymous)';
  if (!url) return name;
  // The package's path says whose code it is (azurite, lokijs); the app's own from dist/.
  const file = url.replace(/^file:\/\//, '');
  const short = file.includes('/node_modules/')
    ? file.replace(/^.*\/node_modules\//, '')
    : file.replace(/^.*?\/(dist|src|tools|bench)\//, '$1/');
  return `${name} (${short}:${lineNumber + 1})`;
}

/**
 * The `count` functions with the most samples of their own (self time), as shares of all
 * samples; functions of the same name and place are added up.
 */
export function topSelfTime(profile: CpuProfile, count = 15): SelfTime[] {
  const hits = new Map<number, number>();
  if (profile.samples && profile.samples.length > 0) {
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  }
  const total = [...hits.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  const byFrame = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = hits.get(node.id) ?? 0;
    if (n === 0) continue;
    const frame = frameName(node.callFrame);
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + n);
  }
  return [...byFrame.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, n]) => ({ frame, share: n / total }));
}

/** `topSelfTime` of a profile file, as printable lines. */
export function describeProfile(file: string, count = 15): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  return topSelfTime(profile, count).map(
    ({ frame, share }) => `${(share * 100).toFixed(1).padStart(5)}%  ${frame}`,
  );
}
