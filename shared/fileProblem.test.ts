import { describe, expect, it } from 'vitest';
import { FormatError } from './errors';
import { plainCompressionProblem, plainFileProblem, plainImportFailure, type PlainFileProblem } from './fileProblem';
import { readMtn } from './mtn/read';
import { readMar } from './mar/read';
import { decodeUtf8Text } from './sev/text';
import { parseProject } from './project/validate';
import { defaultTuning, serializeTuning } from './tuning/sidecar';
import { writeMtn } from './mtn/write';
import { syntheticMotion } from './testing/syntheticMotion';
import { encodeUtf8 } from './utf8';

const WALK = writeMtn(syntheticMotion({ frames: 132, joints: 23, seed: 5 }));
const SAMPLE = JSON.stringify(
  {
    version: 1,
    fps: 30,
    motions: [
      { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev', tolerances: { position: 0.5, rotationDeg: 0.5 } },
      { name: 'run', mtn: 'run.mtn', tolerances: { position: 0.5, rotationDeg: 0.75 } },
    ],
    seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
    outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
  },
  null,
  2,
);

/** The plain problem of what `read` throws (it must throw a FormatError). */
function plainOf(read: () => unknown, file: string): PlainFileProblem {
  try {
    read();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    const named = e.file ? e : e.withFile(file);
    return plainFileProblem(named.kind, named.detail, named.place, named.file);
  }
  throw new Error('the reader accepted the corrupt file');
}

describe('plainFileProblem: a corrupt file in words first', () => {
  it('a truncated .mtn ends too soon; copy or export it again', () => {
    const p = plainOf(() => readMtn(WALK.subarray(0, 1000)), '/w/trunc.mtn');
    expect(p.file).toBe('trunc.mtn');
    expect(p.lead).toBe('it ends too soon: part of its data is missing (a copy or save that stopped part way?).');
    expect(p.advice).toBe('Copy it again, or export it again from the tool that made it.');
    // No format internals in the plain words.
    expect(`${p.lead} ${p.advice}`).not.toMatch(/offset|header|bytes|magic|\[MTN\]/);
  });

  it('flipped magic bytes: not a motion', () => {
    const bytes = WALK.slice();
    for (let i = 0; i < 4; i++) bytes[i] ^= 0xff;
    expect(plainOf(() => readMtn(bytes), '/w/flip.mtn').lead).toBe(
      'it is not a motion (.mtn): its first bytes are not those of one (another kind of file, or damaged at its start).',
    );
  });

  it('a NaN float names the place in the motion', () => {
    const bytes = WALK.slice();
    const dv = new DataView(bytes.buffer);
    for (let at = 2000; at < 2040; at += 4) dv.setFloat32(at, NaN, true);
    const p = plainOf(() => readMtn(bytes), '/w/nan.mtn');
    expect(p.lead).toMatch(/^it holds a broken number \(NaN or infinity\) at \w+ frame \d+/);
  });

  it('a .mar cut inside its table ends too soon', () => {
    const bytes = new Uint8Array(40);
    const dv = new DataView(bytes.buffer);
    dv.setUint32(0, 0x6152414d, true); // "MARa"
    dv.setUint32(8, 10, true); // ten motions: an 80-byte table the 40 bytes do not hold
    const p = plainOf(() => readMar(bytes), '/w/stage.mar');
    expect(p.lead).toMatch(/^it ends too soon/);
  });

  it('a .sev with bytes that are not UTF-8 points at the line to fix', () => {
    const bytes = new Uint8Array([...encodeUtf8('sev 1\nmotion walk\n'), 0xff, 0xfe, 0x0a]);
    const p = plainOf(() => decodeUtf8Text(bytes, 'SEV', '/w/walk.sev'), '/w/walk.sev');
    expect(p.lead).toBe('it holds bytes that are not text at line 3: it is damaged, or not a sound-event file (.sev).');
    expect(p.advice).toBe('Fix it at line 3 in a text editor, then open it again.');
  });

  it('a project cut short in its JSON ends too soon at its line', () => {
    const r = parseProject(SAMPLE.slice(0, 200), '/w/bad.actguy.json');
    const e = r.errors[0];
    const p = plainFileProblem(e.kind, e.detail, e.place, e.file);
    expect(p.lead).toMatch(/^it ends too soon at line \d+: part of its data is missing/);
    expect(p.file).toBe('bad.actguy.json');
  });

  it("a motion's tuning file opened as a project is said for what it is, with no mistakes to fix in a text editor", () => {
    const tuning = serializeTuning(defaultTuning(), []);
    const r = parseProject(tuning, '/w/walk.mtn.actguy-tuning.json');
    expect(r.errors).toHaveLength(1);
    const e = r.errors[0];
    expect(plainFileProblem(e.kind, e.detail, e.place, e.file)).toEqual({
      file: 'walk.mtn.actguy-tuning.json',
      lead: 'it is the tuning file ActGuy keeps beside walk.mtn (its tolerances), not a project.',
      advice: 'To tune that motion, open walk.mtn with File › Open…; a project is a .actguy.json file.',
    });
    // A project whatever its name otherwise: read as one.
    expect(parseProject(SAMPLE, '/w/tuning.json').errors).toEqual([]);
  });

  it('a build report opened as a project is said for what it is, naming the project it reports on', () => {
    // The head of out/stage.report.json as a build writes it (shared/project/plan.ts BuildReport): read as a project
    // it gave 88 problems and half a project whose motions replaced the tuner's.
    const report = {
      tool: 'actguy build',
      reportVersion: 1,
      project: '/w/sample.actguy.json',
      fps: 30,
      motions: [{ index: 0, name: 'walk', mtn: '/w/walk.mtn', tolerances: { position: 0.5 } }],
    };
    const r = parseProject(JSON.stringify(report, null, 2), '/w/out/stage.report.json');
    expect(r.resolved).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    const e = r.errors[0];
    expect(plainFileProblem(e.kind, e.detail, e.place, e.file)).toEqual({
      file: 'stage.report.json',
      lead: 'it is the build report ActGuy wrote at a build (what went into the .mar and .sar), not a project.',
      advice: 'To open the project it reports on, choose sample.actguy.json with Open Project….',
    });
    // A project name no message should print (a line break, a bidi override) is left out, not echoed.
    const odd = parseProject(JSON.stringify({ ...report, project: '/w/x\u202Egpj.json' }), '/w/r.json').errors[0];
    expect(plainFileProblem(odd.kind, odd.detail, odd.place, odd.file).advice).toBe(
      'To open a project, choose its .actguy.json file with Open Project….',
    );
    // A project with a key named "tool" is still read as a project (and told of its unknown key).
    const withTool = parseProject(SAMPLE.replace('{', '{"tool": "actguy build",'), '/w/p.actguy.json').errors;
    expect(withTool.map((x) => x.detail)).toEqual([expect.stringMatching(/^unknown key "tool"/)]);
  });

  it('a project value mistake keeps the reader’s own words, with its place', () => {
    const r = parseProject(SAMPLE.replace('"version": 1', '"version": 2'), '/w/p.actguy.json');
    const e = r.errors[0];
    expect(plainFileProblem(e.kind, e.detail, e.place, e.file).lead).toBe(
      'it has a mistake in version: must be 1, found 2.',
    );
  });

  it('a project of no motions points to + Add, not to a text editor', () => {
    const r = parseProject(SAMPLE.replace(/"motions": \[[\s\S]*?\n  \],/, '"motions": [],'), '/w/p.actguy.json');
    const e = r.errors.find((x) => x.place.where === 'motions')!;
    expect(plainFileProblem(e.kind, e.detail, e.place, e.file)).toEqual({
      file: 'p.actguy.json',
      lead: 'it lists no motions yet: an archive needs at least one.',
      advice: 'Add one with + Add in the project panel (or File › Import Motion…), then save the project.',
    });
  });

  it('an unrecognised binary problem still leads in words', () => {
    const p = plainFileProblem(
      'MT3',
      'numFrames 1515870942 outside 1..65535',
      { offset: 12, where: 'header' },
      '/w/x.mt3',
    );
    expect(p.lead).toBe(
      'it holds values no valid compressed motion (.mt3) has: it is damaged, or was written by a tool ActGuy does not know.',
    );
  });
});

describe('FILE_KIND articles', () => {
  it('reads "an SE table", "a motion"', () => {
    expect(plainFileProblem('SE_DEFINE', 'invalid UTF-8: byte 0xff', { line: 1, column: 2 }, 'se_define.h').lead).toBe(
      'it holds bytes that are not text at line 1: it is damaged, or not an SE table (se_define.h).',
    );
    expect(plainFileProblem('MTN', 'bad magic', { offset: 0 }).lead).toMatch(/^it is not a motion \(\.mtn\)/);
  });
});

describe('plainFileProblem for File > Import', () => {
  it('a BVH cut short says to import it again, at its line', () => {
    const p = plainFileProblem(
      'BVH',
      'file ends early (truncated): expected channel 2 of 6',
      { line: 5, column: 22 },
      '/w/bad.bvh',
      'import',
    );
    expect(p.file).toBe('bad.bvh');
    expect(p.lead).toBe(
      'it ends too soon at line 5: part of its data is missing (a copy or save that stopped part way?).',
    );
    expect(p.advice).toBe('Fix it at line 5 in a text editor, then import it again.');
  });
});

describe('plainImportFailure: an import that failed for another reason than a bad file', () => {
  // The messages the import worker, its runner and the source read give (electron/interchange/importRunner.ts, importJob.ts).
  const at = 'Could not import /w/mocap/take 01.bvh';
  const cases: [string, RegExp][] = [
    [
      `${at}: the importer stopped (exit code 1)`,
      /^the importer stopped before it finished \(it may have run out of memory\)/,
    ],
    [
      `${at}: the importer stopped (Worker terminated due to reaching memory limit: JS heap out of memory)`,
      /^the importer stopped/,
    ],
    [`${at}: the import worker did not start (Cannot find module '/app/importWorker.cjs')`, /^the importer stopped/],
    [
      `${at}: stopped after 120 s, the most an import may take (the file is damaged, or far larger than a motion)`,
      /^it took longer than the 120 s an import may take/,
    ],
    [`${at}: the file does not exist`, /^the file is not there any more/],
    [`${at}: permission denied`, /^ActGuy is not allowed to read it/],
    [`${at}: it is a folder, not a file`, /^it is not a file ActGuy can read/],
    [`${at}: it is not a regular file (a device, pipe or socket)`, /^it is not a file ActGuy can read/],
    [`${at}: 600 MiB is more than the 512 MiB an import reads`, /^it is larger than an import reads/],
    [
      `${at} [GLTF] (header): it is 629145600 bytes, more than the 536870912 ActGuy reads of an import source; nothing past the header was read`,
      /^it is larger than an import reads/,
    ],
    [`${at}: The operation was aborted`, /^reading it was cancelled before it finished/],
    [`${at}: the file is in use`, /^another program is using it/],
  ];
  it.each(cases)('%s', (message, lead) => {
    const p = plainImportFailure(message, '/w/mocap/take 01.bvh')!;
    expect(p.file).toBe('take 01.bvh');
    expect(p.lead).toMatch(lead);
    expect(p.lead).toMatch(/\.$/);
    expect(p.advice).toMatch(/^[A-Z].*\.$/);
    // Plain words: no path, no exit code, no module name (those stay in the Details).
    expect(`${p.lead} ${p.advice}`).not.toMatch(/\/w\/|exit code|Cannot find|heap|MiB/);
  });

  it('a message it does not know is left as it is (null)', () => {
    expect(
      plainImportFailure('Could not import /w/a.bvh: a clip can be chosen for glTF/GLB and FBX files only', '/w/a.bvh'),
    ).toBeNull();
  });
});

describe('plainCompressionProblem: a failed compression in words first', () => {
  it('a stopped worker: edits kept, an edit compresses again', () => {
    const p = plainCompressionProblem('the compressor stopped (exit code 134); the next edit restarts it');
    expect(p.lead).toBe('the compressor stopped unexpectedly (it may have run out of memory)');
    expect(p.advice).toMatch(/^Your edits are kept; .*Make any edit, or Undo then Redo, to compress again/);
  });

  it('a refused motion (a FormatError) says to undo the last edit', () => {
    const p = plainCompressionProblem('walk [MTN] (frame 12): two joints locked on one frame', true);
    expect(p.lead).toMatch(/^the compressor refused the motion as it is now edited/);
    expect(p.advice).toMatch(/Undo the last edit \(Ctrl\+Z\)/);
  });

  it('a lost document and a shutdown are told apart from anything else', () => {
    expect(plainCompressionProblem('compress: document d1 is not open (it was closed or never opened)').lead).toBe(
      'the compressor no longer holds this motion',
    );
    expect(plainCompressionProblem('the compressor was shut down').lead).toMatch(/shut down/);
    expect(plainCompressionProblem('RangeError: offset out of range').lead).toBe('the compressor reported an error');
  });
});

// Round 51 (docs/security.md): a project built from a received folder named p<U+202E>.actguy.json showed its name raw in
// the Build panel (a build's problems carry these words in their value, past the reply's escape). Mutation that
// fails: plainFileProblem naming the file without escapeControls.
describe("plainFileProblem: a file's hidden characters", () => {
  it('are named as \\uXXXX', () => {
    const p = plainFileProblem('PROJECT', 'cannot read walk.mtn: no such file', {}, '/ws/p\u202e.actguy.json');
    expect(p.file).toBe('p\\u202e.actguy.json');
    expect(JSON.stringify(p)).not.toContain('\u202e');
  });
});
