import { afterEach, describe, expect, it, vi } from 'vitest';
import { printJson } from './json';

describe('--json output', () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes a name's hidden characters as \\uXXXX escapes, which read back as the same name (docs/security.md, round 52)", () => {
    // `actguy info w.nodes.json --json` of a received folder's node list: JSON escapes C0 only, so a node named
    // with U+009B (a terminal's CSI), U+202E or a zero-width space reached the terminal raw.
    let written = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += String(chunk);
      return true;
    });
    const doc = { nodes: [{ name: 'Hi\u009b2J\u202eps\u200b', tab: '\t', esc: '\u001b[2J' }] };
    printJson(doc);
    expect(written).toBe(
      '{\n  "nodes": [\n    {\n      "name": "Hi\\u009b2J\\u202eps\\u200b",\n      "tab": "\\t",\n      "esc": "\\u001b[2J"\n    }\n  ]\n}\n',
    );
    expect(JSON.parse(written)).toEqual(doc);
  });
});
