/**
 * An MSH export as the three files it is written as (`PREFIX.res8`,
 * `PREFIX.res19`, `PREFIX.nodes.json`): the names and their contents, made
 * the same way by `actguy export-msh`, a build's `outputs.msh` and the app's
 * File > Export MSH, so the three never differ in a byte.
 */
import type { Motion } from '../motion/types';
import { exportMshAnimation, type MshExportOptions, type MshNodeFit } from './export';
import { mshNodesJson } from './nodesJson';
import { writeMshResources } from './write';
import { MSH_NO_MAP } from './constants';

/** The file name endings of an MSH export, after its prefix. */
export const MSH_FILE_SUFFIXES = { res8: '.res8', res19: '.res19', nodes: '.nodes.json' } as const;

/** The three files of an export with this prefix (a path without extension). */
export interface MshFilePaths {
  res8: string;
  res19: string;
  nodes: string;
}

export function mshFilesOf(prefix: string): MshFilePaths {
  return {
    res8: `${prefix}${MSH_FILE_SUFFIXES.res8}`,
    res19: `${prefix}${MSH_FILE_SUFFIXES.res19}`,
    nodes: `${prefix}${MSH_FILE_SUFFIXES.nodes}`,
  };
}

/** The prefix of a path that names one of the three files (`walk.res8` -> `walk`); the path itself when it names none. */
export function mshPrefixOf(path: string): string {
  return path.replace(/\.(res8|res19|nodes\.json)$/i, '');
}

/** A finished export: the three files' contents and what the fit achieved. */
export interface MshExportFiles {
  res8: Uint8Array;
  res19: Uint8Array;
  /** The .nodes.json text (UTF-8 when written). */
  nodesJson: string;
  totalKeys: number;
  /** Res19 attr1: frame map words. */
  mapWords: number;
  /** Res19 attr2: frames on the timeline (N + 1). */
  frameCount: number;
  nodeCount: number;
  /** Nodes with a frame map (the others hold one static key). */
  animatedNodes: number;
  /** Nodes whose tolerance float32 / s16 precision cannot meet, in words. */
  warnings: string[];
  /** How many shares the compression pool fitted the nodes in (a long motion); absent when one thread did. */
  nodeShares?: number;
}

/** A motion's MSH fit with its two payloads written: what the three files are made from, under any name. */
export interface MshFit {
  result: ReturnType<typeof exportMshAnimation>;
  resources: ReturnType<typeof writeMshResources>;
  options: MshExportOptions;
}

/** Fits `motion`'s nodes and writes the payloads (the costly part of an export, done once for a motion and its aliases). */
export function fitMsh(motion: Motion, options: MshExportOptions, fits?: MshNodeFit[]): MshFit {
  const result = exportMshAnimation(motion, options, fits);
  return { result, resources: writeMshResources(result.animation), options };
}

/**
 * Exports `motion` and serialises the three files. `source` is recorded in the
 * .nodes.json as the motion it came from; `baseName` is the prefix's file name
 * (the .nodes.json names its payloads `baseName.res8` and `baseName.res19`).
 */
export function exportMshFiles(
  motion: Motion,
  options: MshExportOptions,
  names: { source: string; baseName: string },
  fits?: MshNodeFit[],
): MshExportFiles {
  return mshFilesOfFit(fitMsh(motion, options, fits), names);
}

/** The three files of a fit under `names` (exportMshFiles). */
export function mshFilesOfFit(fit: MshFit, names: { source: string; baseName: string }): MshExportFiles {
  const { result, resources, options } = fit;
  const overrides = options.rotationToleranceOverridesDeg ?? {};
  const nodes = mshNodesJson(
    result,
    resources,
    {
      source: names.source,
      res8: `${names.baseName}${MSH_FILE_SUFFIXES.res8}`,
      res19: `${names.baseName}${MSH_FILE_SUFFIXES.res19}`,
    },
    {
      position: options.positionTolerance,
      rotationDeg: options.rotationToleranceDeg,
      rotationOverridesDeg: overrides,
    },
  );
  return {
    res8: resources.res8.bytes,
    res19: resources.res19.bytes,
    nodesJson: `${JSON.stringify(nodes, null, 2)}\n`,
    totalKeys: result.totalKeys,
    mapWords: resources.res19.attr1,
    frameCount: result.animation.frameCount,
    nodeCount: result.animation.nodes.length,
    animatedNodes: result.animation.nodes.filter((n) => n.animMapStart !== MSH_NO_MAP).length,
    warnings: result.warnings,
  };
}
