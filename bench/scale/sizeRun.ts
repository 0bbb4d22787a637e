/**
 * One size of the scale case (bench/cases/scale.ts): its steps run one after another, each bounded
 * in time and by the case's budget, each with the requests it caused beyond the host's idle
 * polling. A step that fails or runs out of time stops the later steps of its size (unless it says
 * otherwise), so a figure is never taken on a half-built department.
 */
import type { BenchEnv } from '../types';
import {
  requestsBeyondIdle,
  runBounded,
  stepResult,
  type Budget,
  type IdleRates,
  type StepProgress,
  type StepResult,
} from './metrics';

/** What a step's work reports when it finishes. */
export interface StepOutcome {
  /** Rows covered, when not the whole size. */
  units?: number;
  note?: string;
}

/** The per-size context the steps share. */
export class SizeRun {
  readonly results: StepResult[] = [];
  idle: IdleRates = {};
  /** Set once a step has failed or timed out: later steps of this run are skipped. */
  stopped?: string;

  constructor(
    readonly env: BenchEnv,
    readonly budget: Budget,
    readonly stepTimeoutMs: number,
    readonly size: number,
    readonly unit: StepResult['unit'],
  ) {}

  /** Runs one step (or records it skipped) and keeps its result. */
  async step(
    name: string,
    work: (signal: AbortSignal, progress: StepProgress) => Promise<StepOutcome>,
    options: { raw?: boolean; stopsRun?: boolean } = {},
  ): Promise<StepResult> {
    const base = { step: name, size: this.size, unit: this.unit, raw: options.raw };
    if (this.stopped !== undefined || this.budget.remaining() === 0) {
      const result = stepResult({
        ...base,
        units: 0,
        status: 'skipped',
        wallMs: 0,
        requests: 0,
        entities: 0,
        bytes: 0,
        note: this.stopped ?? 'budget spent',
      });
      this.results.push(result);
      return result;
    }
    const timeoutMs = this.budget.stepTimeout(this.stepTimeoutMs);
    this.env.resetTraffic();
    process.stdout.write(`  … ${name} at ${this.size.toLocaleString('en-US')}\n`);
    const outcome = await runBounded(timeoutMs, work);
    const traffic = this.env.traffic();
    const figures = {
      ...base,
      wallMs: outcome.elapsedMs,
      requests: requestsBeyondIdle(traffic, this.idle, outcome.elapsedMs),
      entities: traffic.entitiesRead,
      bytes: traffic.bytesSent + traffic.bytesReceived,
    };
    let result: StepResult;
    if (outcome.status === 'ok') {
      result = stepResult({
        ...figures,
        units: outcome.value.units ?? this.size,
        status: 'ok',
        note: outcome.value.note,
      });
    } else {
      const why =
        outcome.status === 'timedOut'
          ? `timed out after ${(outcome.elapsedMs / 1000).toFixed(0)} s at ${outcome.done.toLocaleString('en-US')} of ${this.size.toLocaleString('en-US')}`
          : `failed at ${outcome.done} of ${this.size}: ${firstLine(outcome.error)}`;
      result = stepResult({ ...figures, units: outcome.done, status: outcome.status, note: why });
      if (options.stopsRun !== false)
        this.stopped = `after ${name} ${outcome.status === 'timedOut' ? 'timed out' : 'failed'}`;
    }
    this.results.push(result);
    return result;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200);
}
