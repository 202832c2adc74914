import { formatStrCode } from '../strcode';
import { mt3StreamSpans, readMt3, readMt3Header } from './read';
import { Mt3Flag, type LockRange } from './types';

/** Flag names in bit order, for display; unknown bits shown in hex. */
export function describeMt3Flags(flags: number): string {
  const names: string[] = [];
  for (const [name, bit] of Object.entries(Mt3Flag)) if (flags & bit) names.push(name);
  const known = Object.values(Mt3Flag).reduce((a, b) => a | b, 0);
  const unknown = (flags & ~known) >>> 0;
  if (unknown) names.push(`0x${unknown.toString(16)}`);
  return `0x${(flags >>> 0).toString(16)}${names.length ? ` (${names.join(' | ')})` : ''}`;
}

export function describeLockRanges(fix: readonly LockRange[]): string {
  return fix
    .map(
      (r) =>
        (r.firstFrame === r.lastFrame ? `${r.firstFrame}` : `${r.firstFrame}..${r.lastFrame}`) + ` joint ${r.joint}`,
    )
    .join(', ');
}

/**
 * A readable summary of an MT3 for `actguy info`: header fields, keys and
 * bytes per stream, lock ranges, trace keys. `motionName` is the known name
 * of the hash, if any. Throws the reader's FormatError for a bad file.
 */
export function describeMt3(bytes: Uint8Array, motionName?: string, jointNames?: readonly string[]): string {
  const h = readMt3Header(bytes);
  const m = readMt3(bytes);
  const J = h.numJoints;
  const jointLabel = (j: number) => (jointNames?.[j] ? `${j} ${jointNames[j]}` : `${j}`);
  const lines: string[] = [];
  lines.push(`MT3: ${bytes.byteLength} bytes`);
  lines.push(`  name       ${motionName ? `${motionName} (${formatStrCode(h.name)})` : formatStrCode(h.name)}`);
  lines.push(`  flags      ${describeMt3Flags(h.flags)}`);
  lines.push(`  baseTick   ${h.baseTick}`);
  lines.push(`  numFrames  ${h.numFrames} (frames 0..${h.numFrames})`);
  lines.push(`  numJoints  ${J}`);
  lines.push(`  dataOffset ${h.dataOffset}, dataSize ${h.dataSize} (${h.dataSize / 2} words)`);
  lines.push(
    `  rootOffset ${h.rootOffset}, moveOffset ${h.moveOffset}, turnOffset ${h.turnOffset}, fixOffset ${h.fixOffset} (words)`,
  );

  const spans = mt3StreamSpans(h);
  const bytesOf = (name: string) => {
    const s = spans.find((x) => x.name === name)!;
    return (s.end - s.start) * 2;
  };
  let totalKeys = m.root.frames.length;
  // Labels share one column width so the key and byte counts line up.
  const labels = [
    'root translation',
    ...Array.from({ length: J }, (_, j) => `rotation ${jointLabel(j)}`),
    'offsets (ROOT)',
    'move (trace)',
  ];
  const width = Math.max(...labels.map((l) => l.length));
  const col = (label: string) => `  ${padEnd(label, width)}`;
  lines.push('streams (keys, bytes):');
  lines.push(`${col('root translation')} ${pad(m.root.frames.length)} keys ${pad(bytesOf('root translation'))} bytes`);
  for (let j = 0; j < J; j++) {
    const k = m.rotations[j].frames.length;
    totalKeys += k;
    lines.push(`${col(`rotation ${jointLabel(j)}`)} ${pad(k)} keys ${pad(bytesOf(`rotation joint ${j}`))} bytes`);
  }
  if (m.offsets) {
    const keys = m.offsets.map((t) => t.frames.length);
    totalKeys += keys.reduce((a, b) => a + b, 0);
    lines.push(
      `${col('offsets (ROOT)')} ${pad(keys.reduce((a, b) => a + b, 0))} keys ${pad(bytesOf('root (joint offsets)'))} bytes (per joint: ${keys.join(' ')})`,
    );
  } else lines.push(`${col('offsets (ROOT)')} absent`);
  if (m.move) {
    const inner = Array.from(m.move.frames).filter((f) => f !== 0 && f !== h.numFrames);
    lines.push(
      `${col('move (trace)')} ${pad(m.move.frames.length)} keys ${pad(bytesOf('move (trace)'))} bytes; trace keys: ${inner.length ? inner.join(' ') : 'none (only 0 and N)'}`,
    );
  } else lines.push(`${col('move (trace)')} absent`);
  lines.push(`${col('turn')} ${m.turn !== null ? `waist joint ${jointLabel(m.turn)}` : 'absent'}`);
  if (m.fix)
    lines.push(
      `${col('fix')} ${m.fix.length} lock range${m.fix.length === 1 ? '' : 's'}${m.fix.length ? `: ${describeLockRanges(m.fix)}` : ''}`,
    );
  else lines.push(`${col('fix')} absent`);
  lines.push(`total keys (root translation, rotations, offsets): ${totalKeys}`);
  return lines.join('\n');
}

function pad(n: number): string {
  return String(n).padStart(6);
}
function padEnd(s: string, n: number): string {
  return s.padEnd(n);
}
