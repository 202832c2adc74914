/**
 * The in-process fuzz loop: input `i` of format `f` under seed `s` is always
 * the same bytes (see inputSeed), so a range of inputs can run anywhere (a
 * worker thread in `npm run fuzz`, the test process in CI) and a finding
 * replays from (format, seed, index). Defects found here are minimized
 * (chunks removed while the same defect reproduces) before they are reported.
 */
import { performance } from 'node:perf_hooks';
import { inputSeed } from './mutate';
import { cpuMs } from './protocol';
import { seededRandom } from '../../shared/testing/random';
import {
  DEFECT_KINDS,
  FuzzDefect,
  SELF_TEST_TARGETS,
  TARGETS,
  describeThrown,
  type DefectKind,
  type FuzzTarget,
  type Outcome,
} from './targets';

export interface Finding {
  format: string;
  kind: DefectKind;
  /** One line: what went wrong. */
  message: string;
  seed: number;
  index: number;
  /** The input (minimized for crash/invalid/unnamed). */
  input: Uint8Array;
  /** CPU milliseconds the input ran (hangs: at least the limit). */
  ms: number;
}

export interface FormatTally {
  format: string;
  inputs: number;
  accepted: number;
  rejected: number;
  defects: Record<DefectKind, number>;
  /** Most CPU time one input took, in milliseconds. */
  maxCpuMs: number;
  /** Wall time of all inputs, in milliseconds. */
  totalMs: number;
}

export const emptyTally = (format: string): FormatTally => ({
  format,
  inputs: 0,
  accepted: 0,
  rejected: 0,
  defects: Object.fromEntries(DEFECT_KINDS.map((k) => [k, 0])) as Record<DefectKind, number>,
  maxCpuMs: 0,
  totalMs: 0,
});

export function targetByName(name: string): FuzzTarget {
  const t = TARGETS.find((x) => x.name === name) ?? SELF_TEST_TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`unknown format ${JSON.stringify(name)} (known: ${TARGETS.map((x) => x.name).join(', ')})`);
  return t;
}

const seedCache = new Map<string, Uint8Array[]>();
function seedsOf(t: FuzzTarget): Uint8Array[] {
  let s = seedCache.get(t.name);
  if (!s) seedCache.set(t.name, (s = t.seeds()));
  return s;
}

/** The bytes of input `index` of a format under `seed` (deterministic). */
export function fuzzInput(t: FuzzTarget, seed: number, index: number): Uint8Array {
  const rnd = seededRandom(inputSeed(seed, TARGETS.indexOf(t), index));
  const seeds = seedsOf(t);
  const base = seeds[Math.floor(rnd() * seeds.length)];
  return t.mutate(rnd, base);
}

/** Runs one input; a defect comes back as a FuzzDefect-shaped result instead of a throw. */
export async function runOne(
  t: FuzzTarget,
  input: Uint8Array,
): Promise<{ outcome: Outcome } | { defect: DefectKind; message: string }> {
  try {
    return { outcome: await t.run(input) };
  } catch (e) {
    if (e instanceof FuzzDefect) return { defect: e.kind, message: e.message };
    return { defect: 'crash', message: `harness: ${describeThrown(e)}` };
  }
}

/** The stable part of a defect message (numbers dropped), so a shrunk input must fail the same way. */
const signature = (kind: DefectKind, message: string) => `${kind}:${message.replace(/\d+/g, '#').slice(0, 120)}`;

/**
 * Shrinks an input while the same defect reproduces: removes chunks from
 * half the input down to single bytes, then trims the tail. Bounded by `budget` tries.
 */
export async function minimize(
  t: FuzzTarget,
  input: Uint8Array,
  kind: DefectKind,
  message: string,
  budget = 1500,
): Promise<Uint8Array> {
  const want = signature(kind, message);
  const same = async (b: Uint8Array) => {
    const r = await runOne(t, b);
    return 'defect' in r && signature(r.defect, r.message) === want;
  };
  let best = input;
  let tries = 0;
  for (let chunk = best.length >> 1; chunk >= 1 && tries < budget; chunk >>= 1) {
    for (let at = 0; at + chunk <= best.length && tries < budget;) {
      const cand = new Uint8Array(best.length - chunk);
      cand.set(best.subarray(0, at));
      cand.set(best.subarray(at + chunk), at);
      tries++;
      if (await same(cand)) best = cand;
      else at += chunk;
    }
  }
  return best;
}

export interface RunOptions {
  seed: number;
  /** First and one-past-last input index. */
  from: number;
  to: number;
  /** Inputs that use more CPU milliseconds than this count as hangs (in-process: measured after the fact). */
  hangMs?: number;
  /** Minimize crash/invalid/unnamed findings (default true). */
  minimize?: boolean;
  /** Called before each input with its index (the worker publishes it for the watchdog). */
  onStart?: (index: number) => void;
  /** Called when the loop stops timing an input (minimizing a finding): a watchdog should not count this. */
  onPause?: () => void;
  /** Called after each input with the running tally. */
  onResult?: (tally: FormatTally) => void;
  /** Called with each finding as it is made. */
  onFinding?: (f: Finding) => void;
  /** At most this many findings of one signature are kept (default 3). */
  perSignature?: number;
}

/** Runs inputs from..to-1 of one format in this thread; returns the tally and the findings. */
export async function runRange(format: string, o: RunOptions): Promise<{ tally: FormatTally; findings: Finding[] }> {
  const t = targetByName(format);
  const tally = emptyTally(format);
  const findings: Finding[] = [];
  const perSig = new Map<string, number>();
  const hangMs = o.hangMs ?? 2000;
  for (let i = o.from; i < o.to; i++) {
    o.onStart?.(i);
    const input = fuzzInput(t, o.seed, i);
    const t0 = performance.now();
    const c0 = cpuMs();
    const r = await runOne(t, input);
    const ms = cpuMs() - c0;
    tally.inputs++;
    tally.totalMs += performance.now() - t0;
    if (ms > tally.maxCpuMs) tally.maxCpuMs = ms;
    let kind: DefectKind | undefined;
    let message = '';
    if ('defect' in r) {
      kind = r.defect;
      message = r.message;
    } else if (ms > hangMs) {
      kind = 'hang';
      message = `took ${ms.toFixed(0)} ms of CPU time (limit ${hangMs} ms)`;
    } else if (r.outcome === 'accepted') tally.accepted++;
    else tally.rejected++;
    if (kind) tally.defects[kind]++;
    o.onResult?.(tally);
    if (!kind) continue;
    const sig = signature(kind, message);
    const seen = perSig.get(sig) ?? 0;
    perSig.set(sig, seen + 1);
    if (seen >= (o.perSignature ?? 3)) continue;
    o.onPause?.();
    const small = kind !== 'hang' && o.minimize !== false ? await minimize(t, input, kind, message) : input;
    const f: Finding = { format, kind, message, seed: o.seed, index: i, input: small, ms };
    findings.push(f);
    o.onFinding?.(f);
  }
  return { tally, findings };
}

/** The per-format table `npm run fuzz` prints. */
export function formatTable(tallies: FormatTally[], extra: { peakRssMb?: number; seconds?: number } = {}): string {
  const head = ['format', 'inputs', 'accepted', 'rejected', ...DEFECT_KINDS, 'max cpu ms', 'mean ms'];
  const rows = tallies.map((t) => [
    t.format,
    String(t.inputs),
    String(t.accepted),
    String(t.rejected),
    ...DEFECT_KINDS.map((k) => String(t.defects[k])),
    t.maxCpuMs.toFixed(1),
    (t.inputs ? t.totalMs / t.inputs : 0).toFixed(3),
  ]);
  const total = emptyTally('total');
  for (const t of tallies) {
    total.inputs += t.inputs;
    total.accepted += t.accepted;
    total.rejected += t.rejected;
    total.totalMs += t.totalMs;
    total.maxCpuMs = Math.max(total.maxCpuMs, t.maxCpuMs);
    for (const k of DEFECT_KINDS) total.defects[k] += t.defects[k];
  }
  rows.push([
    total.format,
    String(total.inputs),
    String(total.accepted),
    String(total.rejected),
    ...DEFECT_KINDS.map((k) => String(total.defects[k])),
    total.maxCpuMs.toFixed(1),
    (total.inputs ? total.totalMs / total.inputs : 0).toFixed(3),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
  const out = [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(0, -1).map(line),
    widths.map((w) => '-'.repeat(w)).join('  '),
    line(rows[rows.length - 1]),
  ];
  const notes: string[] = [];
  if (extra.peakRssMb !== undefined) notes.push(`peak RSS ${extra.peakRssMb.toFixed(0)} MB`);
  if (extra.seconds !== undefined) notes.push(`${extra.seconds.toFixed(0)} s`);
  if (notes.length) out.push(notes.join(', '));
  return out.join('\n');
}
