/**
 * What the fuzz harness feeds and how it judges the result: per format, a
 * seed corpus (built in-process from the writers and the bundled assets),
 * the mutation family that fits it, and the reader or importer under test
 * with the check an accepted input must pass.
 *
 * A run of one input ends in one of:
 * - rejected: the reader threw a FormatError (the typed error users see);
 * - accepted: the reader returned, and the check passed (the result validates
 *   and, where the format allows, writes back to the same bytes or text);
 * - a defect (thrown as FuzzDefect): any other exception (a TypeError, a
 *   stack overflow...), an accepted input that fails validation or the round
 *   trip, or an error message that does not name the file it is about.
 * Hangs and memory blow-ups are judged by the runner around this.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryKindOfMagic, type SizeFromHead } from '../../shared/binarySize';
import { FormatError } from '../../shared/errors';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { glbSizeFromHead, isGlb, readGltfContainer, writeGlb } from '../../shared/interchange/gltf/glb';
import { importMotionBytes } from '../../shared/interchange/importMotion';
import { hostileBvhCases } from '../../shared/testing/hostileMotions';
import { parseMotionNames } from '../../shared/mar/names';
import { marSizeFromHead, readMar } from '../../shared/mar/read';
import { exportMshAnimation } from '../../shared/msh/export';
import { mshNodesJson, parseMshNodesJson } from '../../shared/msh/nodesJson';
import { readMshAnimation } from '../../shared/msh/read';
import { sampleMshNode } from '../../shared/msh/sample';
import { writeMshResources } from '../../shared/msh/write';
import { writeMar } from '../../shared/mar/write';
import type { Motion } from '../../shared/motion/types';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import { mt3SizeFromHead, readMt3 } from '../../shared/mt3/read';
import { randomMt3 } from '../../shared/mt3/testFixtures';
import { validateMt3 } from '../../shared/mt3/validate';
import { writeMt3 } from '../../shared/mt3/write';
import { mtnSizeFromHead, readMtn } from '../../shared/mtn/read';
import { validateMotion } from '../../shared/mtn/validate';
import { writeMtn } from '../../shared/mtn/write';
import { parseProject } from '../../shared/project/validate';
import { readSar, sarSizeFromHead } from '../../shared/sar/read';
import { writeSar } from '../../shared/sar/write';
import type { SarEntry } from '../../shared/sar/types';
import { parseSeDefine } from '../../shared/se-tables/define';
import { parseSls } from '../../shared/se-tables/sls';
import { SE_CODE_MAX, type SeTableReadResult } from '../../shared/se-tables/types';
import { parseSev } from '../../shared/sev/parse';
import { serializeSev } from '../../shared/sev/serialize';
import { decodeUtf8Text } from '../../shared/sev/text';
import { SEV_NAME_PATTERN } from '../../shared/sev/types';
import { sevWarnings } from '../../shared/sev/validate';
import { motionNameProblem } from '../../shared/motionName';
import { gvStrCode } from '../../shared/strcode';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { journalTarget, saveJournalTarget } from './journalTarget';
import { runProjectExport } from './projectExportTarget';
import { runExportNames } from './exportNamesTarget';
import { exportReadsTarget } from './exportReadsTarget';
import { pickerFoldersTarget } from './pickerFoldersTarget';
import { lastFolderPickTarget } from './lastFolderPickTarget';
import { gltfNodesTarget } from './gltfNodesTarget';
import { savePickerTarget } from './savePickerTarget';
import { workspaceTarget } from './workspaceTarget';
import {
  checkMotionSaves,
  describeThrown,
  equalBytes,
  FuzzDefect,
  judge,
  judgeAsync,
  must,
  namesFile,
  type FuzzTarget,
  type Outcome,
} from './judge';
import { mutateBinary, mutateJson, mutateText, pick, type Rng } from './mutate';
import { ipcFrameTarget } from './ipcFrameTarget';
import { portTableTarget } from './portTableTarget';
import { secondLaunchTarget } from './secondLaunchTarget';
import { cacheEntryTarget } from './cacheEntryTarget';
import { verdictsTarget } from './verdictsTarget';
import { lastBuildTarget } from './lastBuildTarget';
import { codeCacheTarget } from './codeCacheTarget';
import { FBX_TARGET } from './fbxTarget';
import { compressTarget } from './compressTarget';
import { roundFiveTarget } from './roundFiveTarget';
import { recentFilesTarget } from './recentFilesTarget';
import { windowStateTarget } from './windowStateTarget';
import { lastFolderTarget } from './lastFolderTarget';
import { buildReportTarget } from './buildReportTarget';
import { tuningTarget } from './tuningTarget';
import { backupTarget } from './backupTarget';
import { preferencesTarget } from './preferencesTarget';
import { layoutTarget } from './layoutTarget';
import { loopbackRequestTarget } from './loopbackRequestTarget';

export {
  DEFECT_KINDS,
  FuzzDefect,
  checkMotionSaves,
  describeThrown,
  judgeAsync,
  type DefectKind,
  type FuzzTarget,
  type Outcome,
} from './judge';

const ASSETS = join(__dirname, '..', '..', 'assets');
const asset = (name: string) => new Uint8Array(readFileSync(join(ASSETS, name)));
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

const binary = (mutations: number) => (rnd: Rng, seed: Uint8Array) => {
  let b = seed;
  const n = 1 + pick(rnd, mutations);
  for (let k = 0; k < n; k++) b = mutateBinary(rnd, b);
  return b;
};

const textual = (tokens: readonly string[]) => (rnd: Rng, seed: Uint8Array) => {
  if (rnd() < 0.08) return mutateBinary(rnd, seed); // invalid UTF-8 and raw byte damage
  let s = text(seed);
  const n = 1 + pick(rnd, 3);
  for (let k = 0; k < n; k++) s = mutateText(rnd, s, tokens);
  return utf8(s);
};

// ---- seeds ----

function smallMotion(seed: number, frames: number, joints: number): Motion {
  return syntheticMotion({ frames, joints, seed, offsets: seed % 2 === 1, userKeys: 2, locks: 1, traceKeys: 1 });
}

const mt3Seeds = () => [
  writeMt3(randomMt3(1, { numFrames: 12, numJoints: 3, name: gvStrCode('stand') })),
  writeMt3(randomMt3(2, { numFrames: 30, numJoints: 2, name: gvStrCode('walk'), offsets: false, fix: false })),
  writeMt3(randomMt3(3, { numFrames: 5, numJoints: 1, name: gvStrCode('run'), move: false, turn: false })),
];

function sarEntry(name: string, S: number, events: [number, number, number][]): SarEntry {
  const seCodes = new Uint16Array(S * 8).fill(0xffff);
  for (let i = 0; i < S; i++)
    for (let a = 0; a < 8; a++) if ((i + a) % 3 !== 2) seCodes[i * 8 + a] = 0x200 + i * 16 + a;
  return { name: gvStrCode(name), seCodes, events: events.map(([frame, se, joint]) => ({ frame, se, joint })) };
}

const SE_DEFINE_EXTRA = `#ifndef X_H
#define X_H
#define BASE 0x100u
#define SHIFTED (BASE << 2) /* comment */
#define MIXED ((BASE | 3) * 2 - ~0 + (7 % 4) ^ 1) // trailing
#define LONG_ONE \\
  (BASE + \\
   0x20)
#define NEG -(1)
#define OCT 0777
#define F(x) x
#endif
`;

function bvhText(frames: number): string {
  const rows: string[] = [];
  for (let f = 0; f < frames; f++)
    rows.push(
      [f * 0.5, 90 + f, -1.25, f * 3, -f * 2, 1.5, f, 0.5, -f, 2, f * 0.25, 0].map((v) => v.toFixed(4)).join(' '),
    );
  return `HIERARCHY
ROOT Hips
{
  OFFSET 0.0 90.0 0.0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT LeftArm
    {
      OFFSET 5 2 0
      CHANNELS 3 Xrotation Yrotation Zrotation
      End Site
      {
        OFFSET 0 -8 0
      }
    }
  }
}
MOTION
Frames: ${frames}
Frame Time: 0.0333333
${rows.join('\n')}
`;
}

function glbSeeds(): Uint8Array[] {
  const a = smallMotion(4, 6, 4);
  a.joints.forEach((j, i) => (j.name = ['Hips', 'Spine', 'LeftArm', 'RightArm'][i]));
  // A rigid rig too (node animation without a skin, docs/interchange.md#conventions): the same file, skins removed.
  const rigid = readGltfContainer(motionToGlb(a));
  delete rigid.json.skins;
  for (const n of rigid.json.nodes ?? []) delete n.skin;
  return [
    motionToGlb(a),
    motionToGlb(smallMotion(5, 3, 3), { boneMesh: false, scale: 0.01 }),
    writeGlb(rigid.json, rigid.bin),
  ];
}

/** A .gltf text with its buffer as a base64 data URI, from a GLB. */
function gltfTextOf(glb: Uint8Array): Uint8Array {
  const { json, bin } = readGltfContainer(glb);
  const copy = JSON.parse(JSON.stringify(json)) as typeof json;
  if (bin && copy.buffers?.[0])
    copy.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  return utf8(JSON.stringify(copy, null, 1));
}

const GLTF_STRINGS = [
  'LINEAR',
  'STEP',
  'CUBICSPLINE',
  'translation',
  'rotation',
  'scale',
  'weights',
  'SCALAR',
  'VEC3',
  'VEC4',
  'MAT4',
  'data:application/octet-stream;base64,AAAA',
  'data:,',
  '%',
  '%zz',
  '%2e%2e/x.bin',
  '../x.bin',
  '/dev/zero',
  'x.bin',
  'KHR_mesh_quantization',
  'EXT_unknown',
  '2.0',
  '1.0',
];

/** glTF JSON mutations, plus mutations of the buffer (key times, values) inside the data URI. */
function mutateGltfText(rnd: Rng, seed: Uint8Array): Uint8Array {
  const r = rnd();
  if (r < 0.1) return textual(GLTF_STRINGS)(rnd, seed);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text(seed)) as Record<string, unknown>;
  } catch {
    return textual(GLTF_STRINGS)(rnd, seed);
  }
  const buffers = json.buffers as { uri?: string }[] | undefined;
  const uri = buffers?.[0]?.uri;
  if (r < 0.45 && typeof uri === 'string' && uri.startsWith('data:')) {
    const comma = uri.indexOf(',');
    let bin: Uint8Array = new Uint8Array(Buffer.from(uri.slice(comma + 1), 'base64'));
    const n = 1 + pick(rnd, 3);
    for (let k = 0; k < n; k++) bin = mutateBinary(rnd, bin);
    buffers![0].uri = `${uri.slice(0, comma + 1)}${Buffer.from(bin).toString('base64')}`;
    if (rnd() < 0.5) return utf8(JSON.stringify(json));
  }
  let s = mutateJson(rnd, json, GLTF_STRINGS);
  if (rnd() < 0.4) {
    try {
      s = mutateJson(rnd, JSON.parse(s), GLTF_STRINGS);
    } catch {
      /* deeply nested: keep the one mutation */
    }
  }
  return utf8(s);
}

/** GLB: container-level byte damage, JSON-chunk mutations or BIN-chunk mutations. */
function mutateGlb(rnd: Rng, seed: Uint8Array): Uint8Array {
  const r = rnd();
  if (r < 0.3) return binary(3)(rnd, seed);
  const { json, bin } = readGltfContainer(seed);
  if (r < 0.6 && bin) {
    let b = bin;
    const n = 1 + pick(rnd, 3);
    for (let k = 0; k < n; k++) b = mutateBinary(rnd, b);
    return writeGlbRaw(JSON.stringify(json), b);
  }
  return writeGlbRaw(mutateJson(rnd, json, GLTF_STRINGS), bin);
}

/** writeGlb for JSON text that may not parse (so the reader sees it, not our writer). */
function writeGlbRaw(jsonText: string, bin?: Uint8Array): Uint8Array {
  const placeholder = writeGlb({ asset: { version: '2.0' } }, bin);
  const jsonBytes = utf8(jsonText);
  const jsonPadded = (jsonBytes.byteLength + 3) & ~3;
  const binPart = placeholder.subarray(12 + 8 + new DataView(placeholder.buffer).getUint32(12, true));
  const out = new Uint8Array(12 + 8 + jsonPadded + binPart.byteLength);
  out.set(placeholder.subarray(0, 12));
  const dv = new DataView(out.buffer);
  dv.setUint32(8, out.byteLength, true);
  dv.setUint32(12, jsonPadded, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.byteLength, 20 + jsonPadded);
  out.set(binPart, 20 + jsonPadded);
  return out;
}

const plainSar = (e: SarEntry) => ({ name: e.name, seCodes: Array.from(e.seCodes), events: e.events });

function mshEnvelope(m: Motion): Uint8Array {
  const r = exportMshAnimation(m, { positionTolerance: 0.5, rotationToleranceDeg: 0.5 });
  const res = writeMshResources(r.animation);
  const json = utf8(
    JSON.stringify(
      mshNodesJson(
        r,
        res,
        { source: 'x.mtn', res8: 'x.res8', res19: 'x.res19' },
        { position: 0.5, rotationDeg: 0.5, rotationOverridesDeg: {} },
      ),
    ),
  );
  const parts = [json, res.res8.bytes, res.res19.bytes];
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.byteLength, 0));
  const dv = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    dv.setUint32(at, p.byteLength, true);
    out.set(p, at + 4);
    at += 4 + p.byteLength;
  }
  return out;
}

function openEnvelope(b: Uint8Array): [Uint8Array, Uint8Array, Uint8Array] {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (let k = 0; k < 3; k++) {
    const len = at + 4 <= b.byteLength ? new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0, true) : 0;
    const start = Math.min(at + 4, b.byteLength);
    const end = Math.min(start + len, b.byteLength);
    parts.push(b.slice(start, end));
    at = end;
  }
  return parts as [Uint8Array, Uint8Array, Uint8Array];
}

/** An accepted SE table: every entry a valid name with a u16 code, unique names. Text readers that list errors reject with them. */
function checkSeTable(r: SeTableReadResult): Outcome {
  if (r.errors.length) return 'rejected';
  const names = new Set<string>();
  for (const e of r.entries) {
    must(SEV_NAME_PATTERN.test(e.name), `entry name ${JSON.stringify(e.name)} is not a valid SE name`);
    must(Number.isInteger(e.code) && e.code >= 0 && e.code <= SE_CODE_MAX, `entry ${e.name} has code ${e.code}`);
    must(!names.has(e.name), `entry ${e.name} listed twice`);
    names.add(e.name);
  }
  return 'accepted';
}

/** Text readers collect errors instead of throwing: every error must be a FormatError naming the file at line:column. */
function checkCollectedErrors(errors: readonly unknown[], file: string): void {
  for (const e of errors) {
    if (!(e instanceof FormatError)) throw new FuzzDefect('crash', `collected a non-FormatError: ${describeThrown(e)}`);
    if (!namesFile(e.message, file))
      throw new FuzzDefect('unnamed', `error does not name ${file}: ${e.message.slice(0, 200)}`);
  }
}

const projectSeeds = () => [
  asset('sample.actguy.json'),
  utf8('{"version":1,"motions":[{"name":"a","mtn":"a.mtn"}],"outputs":{"mar":"o/s.mar","sar":"o/s.sar"}}'),
];

/** Project texts: token edits, or tree edits with the names and paths a project holds. */
function mutateProject(rnd: Rng, seed: Uint8Array): Uint8Array {
  if (rnd() < 0.3) return textual(['{', '}', '[', ']', 'version', 'motions', 'outputs', '"mtn"', '"a.mtn"'])(rnd, seed);
  return utf8(
    mutateJson(rnd, JSON.parse(text(seed)), [
      'walk',
      'a.mtn',
      '../x',
      '/abs/x.mar',
      '',
      'C:\\x',
      'x.mar',
      'name',
      'aaap',
      'aac0',
    ]),
  );
}

export const TARGETS: FuzzTarget[] = [
  {
    name: 'mtn',
    ext: 'mtn',
    seeds: () => [writeMtn(smallMotion(1, 8, 3)), writeMtn(smallMotion(2, 3, 5)), writeMtn(smallMotion(3, 1, 1))],
    mutate: binary(3),
    run: (b) =>
      judge(
        () => readMtn(b),
        (m) => {
          validateMotion(m);
          must(equalBytes(writeMtn(m), b), 'accepted bytes do not write back identically');
        },
      ),
  },
  {
    name: 'mt3',
    ext: 'mt3',
    seeds: mt3Seeds,
    mutate: binary(3),
    run: (b) =>
      judge(
        () => {
          const m = readMt3(b);
          return { m, decoded: decodeMt3ToMotion(m) };
        },
        ({ m, decoded }) => {
          validateMt3(m);
          must(equalBytes(writeMt3(m), b), 'accepted bytes do not write back identically');
          validateMotion(decoded);
        },
      ),
  },
  {
    name: 'mar',
    ext: 'mar',
    seeds: () => {
      const mt3s = mt3Seeds();
      return [writeMar(mt3s), writeMar(mt3s.slice(0, 1)), writeMar([])];
    },
    mutate: binary(3),
    run: (b) =>
      judge(
        () => readMar(b),
        (a) => {
          must(new Set(a.entries.map((e) => e.name)).size === a.entries.length, 'two entries share a name hash');
          for (const e of a.entries) validateMt3(e.mt3);
          // Padding, maxJoint and dataBase may differ from what we write (the spec allows it); the entries must not.
          const again = readMar(writeMar(a.entries.map((e) => e.bytes)));
          must(
            again.entries.length === a.entries.length &&
              again.entries.every((e, i) => equalBytes(e.bytes, a.entries[i].bytes)),
            'the entries do not survive a write and re-read',
          );
        },
      ),
  },
  {
    name: 'sar',
    ext: 'sar',
    seeds: () => {
      const entries = [
        sarEntry('walk', 3, [
          [0, 0, 1],
          [4, 2, 255],
          [4, 1, 3],
          [9, 0, 0],
        ]),
        sarEntry('stand', 0, []),
        sarEntry('run', 1, [[2, 0, 7]]),
      ];
      return [
        writeSar(
          entries,
          entries.map((e) => e.name),
        ),
        writeSar(entries.slice(0, 1), [entries[0].name]),
      ];
    },
    mutate: binary(3),
    run: (b) =>
      judge(
        () => readSar(b),
        (a) => {
          for (const e of a.entries)
            for (const ev of e.events) {
              let defined = false;
              for (let v = 0; v < 8; v++) if (e.seCodes[ev.se * 8 + v] !== 0xffff) defined = true;
              must(defined, `an event uses SE index ${ev.se}, which is undefined`);
            }
          const again = readSar(
            writeSar(
              a.entries,
              a.entries.map((e) => e.name),
            ),
          );
          must(
            JSON.stringify(again.entries.map(plainSar)) === JSON.stringify(a.entries.map(plainSar)),
            'the entries do not survive a write and re-read',
          );
        },
      ),
  },
  {
    name: 'sev',
    ext: 'sev',
    seeds: () => [
      asset('walk.sev'),
      asset('cmu_01_01.sev'),
      utf8('sev 1\nmotion m\nse 0 A variants A B C D E F G H  # t \t\nevent 3 0 -\n'),
    ],
    mutate: textual(['sev', 'motion', 'se', 'event', 'variants', 'SE_FOOT_L', '-', '#', 'walk']),
    run: (b) =>
      judge(
        () => {
          const t = decodeUtf8Text(b, 'SEV', 'x.sev');
          return parseSev(t, 'x.sev');
        },
        ({ doc, errors }) => {
          checkCollectedErrors(errors, 'x.sev');
          if (errors.length) return 'rejected';
          const once = serializeSev(doc);
          const again = parseSev(once, 'x.sev');
          must(again.errors.length === 0, `the serialized document does not parse: ${again.errors[0]?.message}`);
          must(serializeSev(again.doc) === once, 'serialize(parse(serialize(doc))) differs from serialize(doc)');
          // The warnings a build and check-sev give: each names the file, at most one per SE and one per event.
          const warnings = sevWarnings(doc, 'x.sev');
          checkCollectedErrors(warnings, 'x.sev');
          must(
            warnings.length <= doc.ses.length + doc.events.length,
            `${warnings.length} warnings for ${doc.ses.length} SEs and ${doc.events.length} events`,
          );
        },
      ),
  },
  {
    name: 'sls',
    ext: 'sls',
    seeds: () => [asset('default.sls'), utf8('A 1\nB = 0x2 ; c\n// x\nC 65534 # d\n')],
    mutate: textual(['=', '0x', 'SE_FOOT_L', ';', '#', '//']),
    run: (b) =>
      judge(
        () => parseSls(decodeUtf8Text(b, 'SLS', 'x.sls'), 'x.sls'),
        (r) => {
          checkCollectedErrors([...r.errors, ...r.warnings], 'x.sls');
          return checkSeTable(r);
        },
      ),
  },
  {
    name: 'se_define',
    ext: 'h',
    seeds: () => [asset('se_define.h'), utf8(SE_DEFINE_EXTRA)],
    mutate: textual([
      '#define',
      '#ifndef',
      '#endif',
      '#undef',
      '(',
      ')',
      '<<',
      '>>',
      '*',
      '-',
      '~',
      '|',
      'SE_FOOT_L_CONC',
      'BASE',
      '\\',
      '0x10u',
      '077',
      '/*',
      '*/',
    ]),
    run: (b) =>
      judge(
        () => parseSeDefine(decodeUtf8Text(b, 'SE_DEFINE', 'x.h'), 'x.h'),
        (r) => {
          checkCollectedErrors([...r.errors, ...r.warnings], 'x.h');
          return checkSeTable(r);
        },
      ),
  },
  {
    name: 'project',
    ext: 'json',
    seeds: projectSeeds,
    mutate: mutateProject,
    run: (b) =>
      judge(
        () => parseProject(decodeUtf8Text(b, 'PROJECT', '/w/p.actguy.json'), '/w/p.actguy.json'),
        (r) => {
          checkCollectedErrors(r.errors, '/w/p.actguy.json');
          if (r.errors.length) return 'rejected';
          must(!!r.resolved && !!r.project, 'no errors but no project');
          const hashes = new Set(r.resolved!.motions.map((m) => m.hash));
          must(hashes.size === r.resolved!.motions.length, 'two motions share a hash');
          for (const m of r.resolved!.motions)
            must(motionNameProblem(m.name) === undefined, `bad motion name ${m.name}`);
          const outs = [r.resolved!.marPath, r.resolved!.sarPath, r.resolved!.reportPath];
          must(new Set(outs).size === 3, 'two outputs share a path');
        },
      ),
  },
  {
    name: 'bvh',
    ext: 'bvh',
    // Plus the hostile variants (shared/testing/hostileMotions.ts): every rotation order on six-channel joints, CRLF
    // and tabs, gimbal lock, half turns, one and two frames, 1e5 and 1e-6 translations (the small ones: a seed's
    // mutations run under the hang limit).
    seeds: () => [
      utf8(bvhText(4)),
      utf8(bvhText(1)),
      ...hostileBvhCases()
        .filter((c) => c.text.length < 50_000)
        .map((c) => utf8(c.text)),
    ],
    mutate: textual([
      'HIERARCHY',
      'ROOT',
      'JOINT',
      'End',
      'Site',
      'OFFSET',
      'CHANNELS',
      'Xposition',
      'Zrotation',
      'MOTION',
      'Frames:',
      'Frame Time:',
      '{',
      '}',
      '6',
      '3',
    ]),
    run: (b) =>
      judgeAsync(
        () => importMotionBytes(b, 'x.bvh'),
        (r) => checkMotionSaves(r.motion),
        'x.bvh',
      ),
  },
  {
    name: 'gltf',
    ext: 'gltf',
    seeds: () => glbSeeds().map(gltfTextOf),
    mutate: mutateGltfText,
    run: (b) =>
      judgeAsync(
        () => importMotionBytes(b, 'x.gltf'),
        (r) => checkMotionSaves(r.motion),
        'x.gltf',
      ),
  },
  {
    name: 'glb',
    ext: 'glb',
    seeds: glbSeeds,
    mutate: mutateGlb,
    run: (b) =>
      judgeAsync(
        () => importMotionBytes(b, 'x.glb'),
        (r) => checkMotionSaves(r.motion),
        'x.glb',
      ),
  },
  FBX_TARGET,
  {
    // The header-first read (electron/io/readBinary.ts): each input's header check, driven as the main process
    // drives it (a head that grows as the check asks), must agree with the full parser: the same refusal with the
    // same message, a refusal of every file whose size is not the one the header implies, and never a refusal
    // of what the parser accepts. Inputs: mutated .mtn, .mt3, .mar, .sar and .glb files.
    name: 'header-first',
    ext: 'bin',
    seeds: () => ['mtn', 'mt3', 'mar', 'sar', 'glb'].flatMap((name) => TARGETS.find((t) => t.name === name)!.seeds()),
    mutate: binary(3),
    run: (b) => {
      const [sizeFromHead, parse] = headerFirstPair(b);
      let stepped: { size: number } | FormatError;
      try {
        stepped = stepHeader(sizeFromHead, b);
      } catch (e) {
        if (!(e instanceof FormatError)) throw new FuzzDefect('crash', `header check: ${describeThrown(e)}`);
        stepped = e;
      }
      let parsed: FormatError | undefined;
      try {
        parse(b);
      } catch (e) {
        if (!(e instanceof FormatError)) throw new FuzzDefect('crash', describeThrown(e));
        parsed = e;
      }
      if (stepped instanceof FormatError) {
        if (!parsed)
          throw new FuzzDefect('invalid', `the header check refuses what the parser accepts: ${stepped.message}`);
        if (parsed.message !== stepped.message)
          throw new FuzzDefect('invalid', `the header check says ${stepped.message}, the parser ${parsed.message}`);
        return 'rejected';
      }
      if (stepped.size !== b.byteLength && !parsed)
        throw new FuzzDefect(
          'invalid',
          `the parser accepts ${b.byteLength} bytes where the header implies ${stepped.size}`,
        );
      return parsed ? 'rejected' : 'accepted';
    },
  },
  {
    // MSH animation as `actguy export-msh` writes it: the .nodes.json, Res8 and Res19, in one envelope
    // of three length-prefixed parts (the lengths are fuzzed too; a part runs to the end when its length lies).
    name: 'msh',
    ext: 'mshfuzz',
    seeds: () => [mshEnvelope(smallMotion(6, 10, 3)), mshEnvelope(smallMotion(7, 4, 2))],
    mutate: (rnd, seed) => binary(3)(rnd, seed),
    run: (b) => {
      const [text, res8, res19] = openEnvelope(b);
      return judge(
        () => {
          const n = parseMshNodesJson(decodeUtf8Text(text, 'MSH', 'x.nodes.json'), 'x.nodes.json');
          return readMshAnimation(res8, res19, n.attrs, n.nodes);
        },
        (a) => {
          const back = writeMshResources(a);
          must(
            equalBytes(back.res8.bytes, res8) && equalBytes(back.res19.bytes, res19),
            'accepted payloads do not write back identically',
          );
          a.nodes.forEach((_, i) => {
            for (const t of [0, a.frameCount / 2, a.frameCount]) {
              const p = sampleMshNode(a, i, t);
              must(
                [...p.position, ...p.rotation].every(Number.isFinite),
                `node ${i} at ${t} samples to a non-finite pose`,
              );
            }
          });
        },
      );
    },
  },
  {
    name: 'names',
    ext: 'txt',
    seeds: () => [utf8('# motions of stage 1\nstand\nwalk   # the walk\r\nrun\n131_01\nsq.wait-2\n')],
    mutate: textual(['#', 'aaap', 'aac0', 'walk', '.', '-', '_']),
    run: (b) =>
      judge(
        () => parseMotionNames(decodeUtf8Text(b, 'MAR', 'x.txt')),
        (names) => {
          for (const [code, { name }] of names) {
            must(motionNameProblem(name) === undefined, `accepted the name ${JSON.stringify(name)}`);
            must(gvStrCode(name) === code, `${name} is filed under another hash`);
          }
        },
      ),
  },
  ipcFrameTarget,
  portTableTarget,
  journalTarget,
  cacheEntryTarget,
  verdictsTarget,
  lastBuildTarget,
  codeCacheTarget,
  compressTarget,
  roundFiveTarget,
  recentFilesTarget,
  windowStateTarget,
  lastFolderTarget,
  buildReportTarget,
  tuningTarget,
  backupTarget,
  preferencesTarget,
  layoutTarget,
  // Round 3 (2026-12-05), last so the earlier targets' inputs stay those of their seeds (input i of a target depends on
  // its place in this list).
  saveJournalTarget,
  {
    name: 'project-export',
    ext: 'json',
    seeds: projectSeeds,
    mutate: mutateProject,
    run: runProjectExport,
  },
  savePickerTarget,
  workspaceTarget,
  // Round 4 (2026-12-06), after round 3's for the same reason.
  {
    name: 'export-names',
    ext: 'json',
    seeds: projectSeeds,
    mutate: mutateProject,
    run: runExportNames,
  },
  exportReadsTarget(mutateProject),
  pickerFoldersTarget,
  lastFolderPickTarget,
  gltfNodesTarget,
  // Round 5 (2026-12-06), after round 4's for the same reason.
  loopbackRequestTarget,
  // Security round 46 (2026-12-06), last for the same reason.
  secondLaunchTarget,
];

/**
 * Targets with a known defect, never run by default (`--format selftest-hang`
 * and so on): the harness's own tests run them to prove that each kind of
 * defect is detected, counted and saved.
 */
export const SELF_TEST_TARGETS: FuzzTarget[] = [
  {
    name: 'selftest-crash',
    ext: 'bin',
    seeds: () => [utf8('seed')],
    mutate: binary(1),
    run: (b) =>
      judge(
        () => (b as unknown as { notAFunction(): void }).notAFunction(),
        () => undefined,
      ),
  },
  {
    name: 'selftest-invalid',
    ext: 'bin',
    seeds: () => [utf8('seed')],
    mutate: binary(1),
    run: (b) =>
      judge(
        () => b.length,
        (n) => must(n < 0, 'a length is never negative'),
      ),
  },
  {
    name: 'selftest-hang',
    ext: 'bin',
    seeds: () => [utf8('seed')],
    mutate: binary(1),
    run: (b) =>
      judge(
        () => {
          let x = b.length;
          for (;;) x = (x * 31 + 7) % 1000003;
        },
        () => undefined,
      ),
  },
  {
    name: 'selftest-memory',
    ext: 'bin',
    seeds: () => [utf8('seed')],
    mutate: binary(1),
    run: () =>
      judge(
        () => {
          const hoard: Float64Array[] = [];
          for (;;) hoard.push(new Float64Array(1 << 20).fill(1));
        },
        () => undefined,
      ),
  },
];

/** The header check and the parser of a header-first input, by its magic (an MT3 has none). */
function headerFirstPair(b: Uint8Array): [SizeFromHead, (b: Uint8Array) => unknown] {
  if (isGlb(b)) return [glbSizeFromHead, readGltfContainer];
  const kind = binaryKindOfMagic(b);
  if (kind === 'MTN') return [mtnSizeFromHead, readMtn];
  if (kind === 'MAR') return [marSizeFromHead, readMar];
  if (kind === 'SAR') return [sarSizeFromHead, readSar];
  return [mt3SizeFromHead, readMt3];
}

/** Runs a header check on a head that grows as it asks; every ask must grow the head and stay inside the file. */
function stepHeader(sizeFromHead: SizeFromHead, b: Uint8Array): { size: number } {
  let head = b.subarray(0, 0);
  for (let step = 0; step < 8; step++) {
    const verdict = sizeFromHead(head, b.byteLength);
    if ('anySize' in verdict) return { size: b.byteLength };
    if (!('needHead' in verdict)) return { size: verdict.size };
    if (!(verdict.needHead > head.byteLength && verdict.needHead <= b.byteLength))
      throw new FuzzDefect(
        'invalid',
        `the header check asks for ${verdict.needHead} bytes with ${head.byteLength} of ${b.byteLength} read`,
      );
    head = b.subarray(0, verdict.needHead);
  }
  throw new FuzzDefect('invalid', 'the header check asked for more of the head 8 times');
}
