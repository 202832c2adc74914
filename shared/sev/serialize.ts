import { trimEndBlanks } from './text';
import { SEV_VERSION, type SevComments, type SevDocument, type SevEvent, type SevSeDefinition } from './types';

/** A comment line is written as `#` + its text; text with line breaks becomes several lines. */
function leadingLines(c: SevComments): string[] {
  return c.leading.flatMap((t) => t.split(/\r\n|\n|\r/)).map((t) => `#${trimEndBlanks(t)}`);
}

function withTrailing(code: string, c: SevComments): string {
  if (c.trailing === undefined) return code;
  return `${code}  #${trimEndBlanks(c.trailing.replace(/[\r\n]+/g, ' '))}`;
}

/** One block of statements; a blank line separates blocks, and a commented statement inside a block. */
function block(items: { code: string; comments: SevComments }[]): string[] {
  const out: string[] = [];
  items.forEach((it, k) => {
    const lead = leadingLines(it.comments);
    if (k > 0 && lead.length) out.push('');
    // One line at a time: push(...lead) passes every line as an argument, and 200,000 comment lines (a 600 KB
    // file) overflowed the stack, so such a file could not be saved.
    for (const line of lead) out.push(line);
    out.push(withTrailing(it.code, it.comments));
  });
  return out;
}

export function seCode(def: SevSeDefinition): string {
  const base = `se ${def.index} ${def.name}`;
  return def.variants ? `${base} variants ${def.variants.join(' ')}` : base;
}

export function eventCode(ev: SevEvent): string {
  return `event ${ev.frame} ${ev.se} ${ev.joint === null ? '-' : ev.joint}`;
}

/** Events sorted by frame; equal frames keep document order (Array.prototype.sort is stable). */
export function eventsByFrame(events: readonly SevEvent[]): SevEvent[] {
  return events.slice().sort((a, b) => a.frame - b.frame);
}

/**
 * Writes a SEV v1 document (docs/formats.md 4): `sev 1`, `motion`, the `se` lines
 * by index, then the `event` lines by frame (stable). Every statement is
 * preceded by its leading comments and followed by its trailing comment, so a
 * user's notes stay on the lines they annotate. Idempotent:
 * serialize(parse(serialize(d))) === serialize(d). Ends with one newline; LF only.
 */
export function serializeSev(doc: SevDocument): string {
  const head: { code: string; comments: SevComments }[] = [{ code: `sev ${SEV_VERSION}`, comments: doc.header }];
  if (doc.motion) head.push({ code: `motion ${doc.motion.name}`, comments: doc.motion.comments });
  const ses = doc.ses
    .slice()
    .sort((a, b) => a.index - b.index)
    .map((d) => ({ code: seCode(d), comments: d.comments }));
  const events = eventsByFrame(doc.events).map((e) => ({ code: eventCode(e), comments: e.comments }));
  const sections = [block(head), block(ses), block(events)];
  const tail = doc.trailingComments.flatMap((t) => t.split(/\r\n|\n|\r/)).map((t) => `#${trimEndBlanks(t)}`);
  if (tail.length) sections.push(tail);
  const lines: string[] = [];
  for (const s of sections) {
    if (!s.length) continue;
    if (lines.length) lines.push('');
    for (const line of s) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}
