// Synthesises one short WAV per SE name defined in assets/default.sls and assets/se_define.h into
// assets/sounds/<NAME>.wav, so the SEV editor's audition can be heard with the sample project.
// Real generated audio (mono 16-bit 22050 Hz, 90-160 ms): footsteps are filtered noise bursts whose
// colour follows the floor (the floor attribute sits in bits 4..6 of the sample codes), cloth is a
// soft swish, gear a metallic rattle, breath a slow noise swell. Deterministic: same names, same bytes.
//   node scripts/make-se-sounds.mjs [--out DIR]
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const outDir = outArg > 0 ? process.argv[outArg + 1] : join(root, 'assets', 'sounds');

// The table readers are TypeScript in shared/: bundle them once for this script.
const tmp = mkdtempSync(join(tmpdir(), 'actguy-sounds-'));
const bundle = join(tmp, 'tables.cjs');
await build({
  stdin: {
    contents:
      "export { parseSls } from './shared/se-tables/sls'; export { parseSeDefine } from './shared/se-tables/define'; export { mergeSeTables } from './shared/se-tables/table';",
    resolveDir: root,
    loader: 'ts',
  },
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'error',
});
const { parseSls, parseSeDefine, mergeSeTables } = createRequire(import.meta.url)(bundle);
rmSync(tmp, { recursive: true, force: true });

const sls = join(root, 'assets', 'default.sls');
const def = join(root, 'assets', 'se_define.h');
const merged = mergeSeTables([parseSls(readFileSync(sls, 'utf8'), sls), parseSeDefine(readFileSync(def, 'utf8'), def)]);
if (merged.errors.length) throw new Error(merged.errors.map((e) => e.message).join('\n'));

const RATE = 22050;

/** xorshift32 noise in -1..1, seeded per name so every file is reproducible. */
function noise(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s / 0xffffffff) * 2 - 1;
  };
}

function hash(name) {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function synth(name, code) {
  const rnd = noise(hash(name));
  let ms = 120;
  let render;
  if (name.startsWith('SE_FOOT')) {
    const floor = (code >> 4) & 7;
    // concrete, grass, water, metal, sand, snow, wood, grate
    const lowpass = [0.35, 0.12, 0.5, 0.8, 0.1, 0.06, 0.25, 0.7][floor];
    const ring = [0, 0, 0, 1900, 0, 0, 420, 1300][floor];
    const right = (code & 8) !== 0;
    ms = floor === 2 ? 160 : 110;
    let y = 0;
    render = (t, i) => {
      y += lowpass * (rnd() - y);
      const env = Math.exp(-t * (floor === 2 ? 28 : 45)) * Math.min(1, i / 40);
      const thump = Math.sin(2 * Math.PI * (right ? 95 : 85) * t) * Math.exp(-t * 60);
      const tone = ring ? Math.sin(2 * Math.PI * ring * t) * Math.exp(-t * 30) * 0.35 : 0;
      return env * (0.8 * y + 0.35 * thump) + tone;
    };
  } else if (name.startsWith('SE_CLOTH')) {
    ms = 150;
    let y = 0;
    render = (t) => {
      y += 0.55 * (rnd() - y);
      return y * Math.sin(Math.PI * Math.min(1, t / 0.15)) * 0.45;
    };
  } else if (name.startsWith('SE_GEAR') || name.startsWith('SE_METAL')) {
    ms = 130;
    render = (t) =>
      (Math.sin(2 * Math.PI * 2400 * t) + 0.6 * Math.sin(2 * Math.PI * 3150 * t)) *
      Math.exp(-t * 40) *
      (0.6 + 0.4 * rnd()) *
      0.4;
  } else if (name.startsWith('SE_LAND') || name.startsWith('SE_WATER')) {
    ms = 240;
    let y = 0;
    const wet = name.startsWith('SE_WATER');
    render = (t) => {
      y += (wet ? 0.6 : 0.15) * (rnd() - y);
      return (y * 0.9 + Math.sin(2 * Math.PI * 60 * t) * 0.5) * Math.exp(-t * (wet ? 12 : 22));
    };
  } else {
    ms = 160;
    let y = 0;
    render = (t) => {
      y += 0.2 * (rnd() - y);
      return y * Math.sin(Math.PI * Math.min(1, t / 0.16)) * 0.9;
    };
  }
  const n = Math.round((RATE * ms) / 1000);
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const fade = Math.min(1, (n - i) / 200); // no click at the end
    pcm[i] = Math.max(-32767, Math.min(32767, Math.round(render(i / RATE, i) * fade * 26000)));
  }
  return wav(pcm);
}

function wav(pcm) {
  const b = Buffer.alloc(44 + pcm.length * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + pcm.length * 2, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(RATE, 24);
  b.writeUInt32LE(RATE * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(pcm.length * 2, 40);
  for (let i = 0; i < pcm.length; i++) b.writeInt16LE(pcm[i], 44 + i * 2);
  return b;
}

mkdirSync(outDir, { recursive: true });
let count = 0;
for (const [name, entry] of merged.table.byName) {
  // Helper defines of se_define.h (the floor shift, the right-foot offset) are numbers, not sounds.
  if (name === 'SE_FLOOR_SHIFT' || name === 'SE_FOOT_RIGHT') continue;
  writeFileSync(join(outDir, `${name}.wav`), synth(name, entry.code));
  count++;
}
console.log(`make-se-sounds: wrote ${count} sounds to ${outDir}`);
