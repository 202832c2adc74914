/**
 * `OUT_PREFIX.nodes.json`: what a node record needs per node (name, parent,
 * anim_map_start, fallback_key) and the attributes of the Res8 and Res19
 * resources, so `actguy info` (or a tool assembling an NRes container) can
 * read the two payload files back.
 */
import { FormatError, quoteJson } from '../errors';
import type { MshResourceAttributes } from './read';
import type { MshExportResult } from './export';
import type { MshNode } from './types';
import type { MshResources } from './write';

export const MSH_NODES_FORMAT = 'actguy msh-anim nodes';

export interface MshNodesJson {
  format: typeof MSH_NODES_FORMAT;
  version: 1;
  /** The motion it came from. */
  source: string;
  /** File names of the payloads, beside this file. */
  res8: { file: string; attr1: number; attr3: number };
  res19: { file: string; attr1: number; attr2: number; attr3: number };
  tolerances: { position: number; rotationDeg: number; rotationOverridesDeg: Record<number, number> };
  nodes: {
    name: string;
    parent: number;
    anim_map_start: number;
    fallback_key: number;
    keys: number;
    maxPositionError: number;
    maxRotationErrorDeg: number;
  }[];
}

export function mshNodesJson(
  result: MshExportResult,
  resources: MshResources,
  files: { source: string; res8: string; res19: string },
  tolerances: MshNodesJson['tolerances'],
): MshNodesJson {
  return {
    format: MSH_NODES_FORMAT,
    version: 1,
    source: files.source,
    res8: { file: files.res8, attr1: resources.res8.attr1, attr3: resources.res8.attr3 },
    res19: {
      file: files.res19,
      attr1: resources.res19.attr1,
      attr2: resources.res19.attr2,
      attr3: resources.res19.attr3,
    },
    tolerances,
    nodes: result.animation.nodes.map((n, j) => ({
      name: n.name,
      parent: n.parent,
      anim_map_start: n.animMapStart,
      fallback_key: n.fallbackKey,
      keys: result.nodes[j].keys,
      maxPositionError: Number(result.nodes[j].maxPositionError.toPrecision(4)),
      maxRotationErrorDeg: Number(result.nodes[j].maxRotationErrorDeg.toPrecision(4)),
    })),
  };
}

/** Parses a .nodes.json: the payload file names, their attributes and the nodes; a wrong shape is a FormatError naming the key. */
export function parseMshNodesJson(
  text: string,
  file: string,
): { res8File: string; res19File: string; attrs: MshResourceAttributes; nodes: MshNode[]; source: string } {
  const fail = (where: string, detail: string): never => {
    throw new FormatError('MSH', detail, { where }, file);
  };
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return fail('(top level)', `not valid JSON: ${(e as Error).message}`);
  }
  const o = j as Partial<MshNodesJson>;
  if (typeof o !== 'object' || o === null || o.format !== MSH_NODES_FORMAT)
    fail('format', `not an ActGuy MSH nodes file (expected "format": "${MSH_NODES_FORMAT}")`);
  const uint = (v: unknown, where: string): number =>
    Number.isInteger(v) && (v as number) >= 0
      ? (v as number)
      : fail(where, `must be a non-negative integer, found ${quoteJson(v)}`);
  // A payload lies beside the list, named by its file name alone (a path could lead anywhere; a control character
  // would reach a terminal with the name).
  const str = (v: unknown, where: string): string =>
    // eslint-disable-next-line no-control-regex
    typeof v === 'string' && v !== '' && v !== '.' && v !== '..' && !/[\\/\u0000-\u001f\u007f-\u009f]/.test(v)
      ? v
      : fail(where, `must be the name of a file beside this one, found ${quoteJson(v)}`);
  if (typeof o.res8 !== 'object' || o.res8 === null) fail('res8', 'is required');
  if (typeof o.res19 !== 'object' || o.res19 === null) fail('res19', 'is required');
  if (!Array.isArray(o.nodes)) fail('nodes', 'must be an array');
  const nodes = o.nodes!.map((n, i) => ({
    name: typeof n?.name === 'string' ? n.name : fail(`nodes[${i}].name`, 'must be a string'),
    parent:
      Number.isInteger(n?.parent) && n.parent >= -1
        ? n.parent
        : fail(`nodes[${i}].parent`, `must be -1 or a node index, found ${quoteJson(n?.parent)}`),
    animMapStart: uint(n?.anim_map_start, `nodes[${i}].anim_map_start`),
    fallbackKey: uint(n?.fallback_key, `nodes[${i}].fallback_key`),
  }));
  return {
    res8File: str(o.res8!.file, 'res8.file'),
    res19File: str(o.res19!.file, 'res19.file'),
    attrs: {
      res8: { attr1: uint(o.res8!.attr1, 'res8.attr1'), attr3: uint(o.res8!.attr3, 'res8.attr3') },
      res19: {
        attr1: uint(o.res19!.attr1, 'res19.attr1'),
        attr2: uint(o.res19!.attr2, 'res19.attr2'),
        attr3: uint(o.res19!.attr3, 'res19.attr3'),
      },
    },
    nodes,
    source: typeof o.source === 'string' ? o.source : '',
  };
}
