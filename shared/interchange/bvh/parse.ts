/**
 * A BVH (Biovision hierarchy) reader. Hand-written rather than three.js's
 * BVHLoader because (1) shared/ must not depend on three (its loaders carry
 * DOM types and a Loader/FileLoader base), and (2) BVHLoader accepts broken
 * files silently (extra values on a frame line are ignored, a missing value
 * becomes NaN) where we must report a FormatError with line and column.
 * BVHLoader is still used by the tests as an independent oracle.
 *
 * Accepted syntax: HIERARCHY, one ROOT, JOINT / End Site blocks with OFFSET and
 * CHANNELS (any order of the six channel names and the three scale ones, 0..9
 * channels, each at most once), MOTION, "Frames: n", "Frame Time: t", then n lines of numbers, one
 * frame per line, exactly as many values as the hierarchy declares.
 */
import { escapeControls, FormatError, quoteInput } from '../../errors';

/** One of the six BVH channel kinds. */
export type BvhChannel =
  | 'Xposition'
  | 'Yposition'
  | 'Zposition'
  | 'Xrotation'
  | 'Yrotation'
  | 'Zrotation'
  /** Scale channels, which some exporters write on every joint: read (a motion carries no scale; see import.ts). */
  | 'Xscale'
  | 'Yscale'
  | 'Zscale';

export interface BvhJoint {
  /** Name as written after ROOT / JOINT (the rest of the line, trimmed). */
  name: string;
  /** Index of the parent joint, -1 for the root. Parents come before children. */
  parent: number;
  /** Rest translation from the parent, in file units. */
  offset: [number, number, number];
  /** Channels in file order; rotations are intrinsic in this order, in degrees. */
  channels: BvhChannel[];
  /** Index of this joint's first channel value within a frame line. */
  channelStart: number;
  /** 1-based line of the ROOT / JOINT keyword. */
  line: number;
}

export interface BvhDocument {
  /** Joints in file order (depth first): parents before children. End Sites are not joints. */
  joints: BvhJoint[];
  /** Number of End Site blocks that were read and dropped. */
  endSites: number;
  /** Number of frame lines (samples), >= 1. */
  frameCount: number;
  /** Seconds per frame as written in the file (> 0). */
  frameTime: number;
  /** Channel values per frame. */
  channelCount: number;
  /** frameCount x channelCount values, frame-major; rotations in degrees. */
  values: Float64Array;
  /** 1-based line of each frame's values (for errors found after parsing, such as a value a motion cannot hold). */
  frameLines: Uint32Array;
  /** Problems tolerated while reading (e.g. frame lines beyond "Frames:"), one line each. */
  warnings: string[];
}

/**
 * The frame times read, in seconds: 10,000 to 0.1 frames per second. A tiny one (1e-320) made the rate
 * infinite and every resampled value NaN (docs/limits.md).
 */
export const BVH_MIN_FRAME_TIME = 0.0001;
export const BVH_MAX_FRAME_TIME = 10;

/**
 * Largest rotation channel value read, in degrees (half a million turns; the FBX reader refuses curves that turn
 * further in all). Past it a double no longer holds the angle to a useful fraction of a degree (at 1e308 not at all),
 * and such a value imported as an arbitrary rotation without a word.
 */
export const BVH_MAX_ANGLE_DEG = 180_000_000;

/** Deepest joint nesting read (a motion holds at most 1024 joints; real skeletons nest about 10 deep). */
export const BVH_MAX_DEPTH = 256;

/**
 * A decimal number as BVH files write them. Unambiguous on purpose: in
 * `\d+\.?\d*` the two digit runs can split a long digit string in n ways,
 * and a 30 KB number that fails at its end took seconds to refuse.
 */
const BVH_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A token as quoted in a message: long ones are cut (a message quotes, it does not copy the file). */
/** The start of a token for a message, its control and hidden characters escaped (a NUL shows as \u0000). */
const clip = (text: string) => escapeControls(text.length > 40 ? `${text.slice(0, 40)}...` : text);

const CHANNEL_NAMES: Record<string, BvhChannel> = {
  xposition: 'Xposition',
  yposition: 'Yposition',
  zposition: 'Zposition',
  xrotation: 'Xrotation',
  yrotation: 'Yrotation',
  zrotation: 'Zrotation',
  xscale: 'Xscale',
  yscale: 'Yscale',
  zscale: 'Zscale',
};

interface Token {
  text: string;
  line: number;
  column: number;
}

/**
 * Parses BVH text. Throws FormatError (kind 'BVH') with line:column for any
 * syntax error, a truncated file, a frame line with more or fewer values than
 * the hierarchy declares. Frame lines beyond the declared count are ignored
 * with a warning (real files have them).
 */
export function parseBvh(text: string): BvhDocument {
  const lines = text.split(/\r\n|\n|\r/);
  const fail = (line: number, column: number, detail: string): never => {
    throw new FormatError('BVH', detail, { line, column });
  };
  // The place just after the last non-blank character of the file.
  const eof = (): [number, number] => {
    let l = lines.length - 1;
    while (l > 0 && lines[l].trim() === '') l--;
    return [l + 1, lines[l].trimEnd().length + 1];
  };

  // Tokenizer over the hierarchy section: whitespace-separated words with positions.
  let li = 0;
  let tokens: Token[] = [];
  let ti = 0;
  const fillLine = (): boolean => {
    while (li < lines.length) {
      const raw = lines[li++];
      tokens = [];
      ti = 0;
      const re = /[{}]|[^\s{}]+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(raw))) tokens.push({ text: m[0], line: li, column: m.index + 1 });
      if (tokens.length) return true;
    }
    return false;
  };
  const peek = (): Token | undefined => {
    if (ti < tokens.length) return tokens[ti];
    if (!fillLine()) return undefined;
    return tokens[ti];
  };
  const next = (what: string): Token => {
    const t = peek();
    if (!t) {
      const [l, c] = eof();
      return fail(l, c, `file ends early (truncated): expected ${what}`);
    }
    ti++;
    return t;
  };
  const expectWord = (word: string): Token => {
    const t = next(`"${word}"`);
    if (t.text.toUpperCase() !== word.toUpperCase())
      fail(t.line, t.column, `expected "${word}", found ${quoteInput(t.text, '"')}`);
    return t;
  };
  const number = (what: string): number => {
    const t = next(what);
    const v = Number(t.text);
    if (!BVH_NUMBER.test(t.text) || !Number.isFinite(v))
      fail(t.line, t.column, `expected ${what} (a number), found "${clip(t.text)}"`);
    return v;
  };
  /** The rest of the current line after the keyword, up to a '{' (joint names may contain spaces). */
  const nameAfter = (kw: Token): string => {
    const parts: string[] = [];
    while (ti < tokens.length && tokens[ti].text !== '{') parts.push(tokens[ti++].text);
    if (!parts.length) fail(kw.line, kw.column + kw.text.length, `${kw.text} needs a joint name`);
    return parts.join(' ');
  };

  const joints: BvhJoint[] = [];
  let endSites = 0;
  let channelCount = 0;

  const readOffset = (): [number, number, number] => {
    expectWord('OFFSET');
    return [number('OFFSET x'), number('OFFSET y'), number('OFFSET z')];
  };

  const readJoint = (kw: Token, parent: number, depth: number): void => {
    if (depth > BVH_MAX_DEPTH) fail(kw.line, kw.column, `joints nested too deeply (more than ${BVH_MAX_DEPTH} levels)`);
    const name = nameAfter(kw);
    const open = next('"{"');
    if (open.text !== '{')
      fail(open.line, open.column, `expected "{" after ${kw.text} ${name}, found ${quoteInput(open.text, '"')}`);
    const index = joints.length;
    const joint: BvhJoint = {
      name,
      parent,
      offset: [0, 0, 0],
      channels: [],
      channelStart: channelCount,
      line: kw.line,
    };
    joints.push(joint);
    joint.offset = readOffset();
    let t = peek();
    if (t && t.text.toUpperCase() === 'CHANNELS') {
      ti++;
      const countTok = next('the channel count');
      const n = Number(countTok.text);
      if (!/^\d+$/.test(countTok.text) || n > 9)
        fail(
          countTok.line,
          countTok.column,
          `CHANNELS count must be an integer 0..9, found ${quoteInput(countTok.text, '"')}`,
        );
      for (let c = 0; c < n; c++) {
        const ct = next(`channel ${c + 1} of ${n}`);
        const ch = CHANNEL_NAMES[ct.text.toLowerCase()];
        if (!ch)
          fail(
            ct.line,
            ct.column,
            `unknown channel ${quoteInput(ct.text, '"')} (expected one of Xposition Yposition Zposition Xrotation Yrotation Zrotation Xscale Yscale Zscale)`,
          );
        if (joint.channels.includes(ch)) fail(ct.line, ct.column, `channel ${ch} listed twice for joint ${name}`);
        joint.channels.push(ch);
      }
      channelCount += n;
    }
    for (;;) {
      t = next(`JOINT, End Site or "}" in joint ${name}`);
      const word = t.text.toUpperCase();
      if (t.text === '}') break;
      if (word === 'JOINT') {
        readJoint(t, index, depth + 1);
      } else if (word === 'END') {
        const site = next('"Site"');
        if (site.text.toUpperCase() !== 'SITE')
          fail(site.line, site.column, `expected "End Site", found "End ${site.text}"`);
        const o = next('"{"');
        if (o.text !== '{') fail(o.line, o.column, `expected "{" after End Site, found ${quoteInput(o.text, '"')}`);
        readOffset();
        const c = next('"}" closing End Site');
        if (c.text !== '}') fail(c.line, c.column, `expected "}" closing End Site, found ${quoteInput(c.text, '"')}`);
        endSites++;
      } else {
        fail(t.line, t.column, `expected JOINT, End Site or "}" in joint ${name}, found ${quoteInput(t.text, '"')}`);
      }
    }
  };

  expectWord('HIERARCHY');
  const root = next('ROOT');
  if (root.text.toUpperCase() !== 'ROOT')
    fail(root.line, root.column, `expected ROOT, found ${quoteInput(root.text, '"')}`);
  readJoint(root, -1, 1);
  const motion = next('MOTION');
  if (motion.text.toUpperCase() === 'ROOT')
    fail(motion.line, motion.column, 'more than one ROOT: only single-rooted hierarchies can become a motion');
  if (motion.text.toUpperCase() !== 'MOTION')
    fail(motion.line, motion.column, `expected MOTION after the hierarchy, found ${quoteInput(motion.text, '"')}`);
  if (ti < tokens.length)
    fail(tokens[ti].line, tokens[ti].column, `unexpected ${quoteInput(tokens[ti].text, '"')} after MOTION`);

  // "Frames: n" and "Frame Time: t" lines (the colon may be glued or spaced).
  const headerLine = (label: RegExp, what: string): { value: string; line: number; column: number } => {
    while (li < lines.length && lines[li].trim() === '') li++;
    if (li >= lines.length) {
      const [l, c] = eof();
      return fail(l, c, `file ends early (truncated): expected "${what}"`);
    }
    const raw = lines[li++];
    const m = label.exec(raw);
    if (!m) return fail(li, raw.search(/\S/) + 1, `expected "${what}", found ${quoteInput(raw.trim(), '"')}`);
    return { value: m[2], line: li, column: m[1].length + 1 };
  };
  const fr = headerLine(/^(\s*Frames\s*:\s*)(\S+)\s*$/i, 'Frames: <count>');
  const frameCount = Number(fr.value);
  if (!/^\d+$/.test(fr.value) || frameCount < 1 || !Number.isSafeInteger(frameCount))
    fail(
      fr.line,
      fr.column,
      `Frames must be a whole number >= 1, found "${escapeControls(fr.value.length > 24 ? `${fr.value.slice(0, 24)}...` : fr.value)}"`,
    );
  const ft = headerLine(/^(\s*Frame\s+Time\s*:\s*)(\S+)\s*$/i, 'Frame Time: <seconds>');
  const frameTime = Number(ft.value);
  if (!(Number.isFinite(frameTime) && frameTime >= BVH_MIN_FRAME_TIME && frameTime <= BVH_MAX_FRAME_TIME))
    fail(
      ft.line,
      ft.column,
      `Frame Time must be a number of seconds from ${BVH_MIN_FRAME_TIME} to ${BVH_MAX_FRAME_TIME} (10,000 to 0.1 frames per second), found "${escapeControls(ft.value.slice(0, 40))}"`,
    );

  // Allocation bounded by the data, not by the count: every frame needs a line of its own, so
  // "Frames: 99999999999" over three lines allocates three frames (and reports the truncation below).
  const values = new Float64Array(Math.min(frameCount, lines.length - li) * channelCount);
  const isRotation = new Uint8Array(channelCount);
  for (const j of joints)
    j.channels.forEach((ch, k) => (isRotation[j.channelStart + k] = ch.endsWith('rotation') ? 1 : 0));
  const frameLines = new Uint32Array(Math.min(frameCount, lines.length - li));
  const warnings: string[] = [];
  let frame = 0;
  for (; li < lines.length; li++) {
    const raw = lines[li];
    if (raw.trim() === '') continue;
    const lineNo = li + 1;
    if (frame >= frameCount) {
      // Real files do this (assimp's Boxing_Toes.bvh declares 3069 frames and
      // holds 3070): the declared count wins, as in other readers, with a warning.
      let extra = 0;
      for (let k = li; k < lines.length; k++) if (lines[k].trim() !== '') extra++;
      warnings.push(
        `line ${lineNo}: ${extra} frame line${extra === 1 ? '' : 's'} after the ${frameCount} declared by "Frames:" ignored`,
      );
      break;
    }
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    let k = 0;
    frameLines[frame] = lineNo;
    while ((m = re.exec(raw))) {
      if (k >= channelCount)
        fail(
          lineNo,
          m.index + 1,
          `frame ${frame} has more values than the ${channelCount} channels the hierarchy declares`,
        );
      const v = Number(m[0]);
      if (!Number.isFinite(v) || !BVH_NUMBER.test(m[0]))
        fail(
          lineNo,
          m.index + 1,
          `frame ${frame} value ${k + 1} (${describeChannel(joints, k)}) is not a number: "${clip(m[0])}"`,
        );
      if (isRotation[k] && Math.abs(v) > BVH_MAX_ANGLE_DEG)
        fail(
          lineNo,
          m.index + 1,
          `frame ${frame} value ${k + 1} (${describeChannel(joints, k)}) is ${clip(m[0])} degrees: a rotation is read up to +-${BVH_MAX_ANGLE_DEG} degrees (half a million turns)`,
        );
      values[frame * channelCount + k] = v;
      k++;
    }
    if (k < channelCount)
      fail(
        lineNo,
        raw.length + 1,
        `frame ${frame} has ${k} values, the hierarchy declares ${channelCount} channels (missing ${describeChannel(joints, k)})`,
      );
    frame++;
  }
  if (frame < frameCount) {
    const [l, c] = eof();
    fail(l, c, `file ends after ${frame} of the ${frameCount} frames declared by "Frames:" (truncated)`);
  }
  return { joints, endSites, frameCount, frameTime, channelCount, values, frameLines, warnings };
}

/** "joint Hips channel Zrotation" for the k-th value of a frame line. */
function describeChannel(joints: BvhJoint[], k: number): string {
  for (const j of joints)
    if (k >= j.channelStart && k < j.channelStart + j.channels.length)
      return `joint ${j.name} channel ${j.channels[k - j.channelStart]}`;
  return `value ${k + 1}`;
}
