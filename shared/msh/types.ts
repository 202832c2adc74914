/**
 * MSH animation (docs/formats.md 7): a key pool (Res8, 24 bytes per
 * key) and a frame map (Res19, u16 words) shared by the nodes of a model.
 * ActGuy writes the two resource payloads and their attributes, plus the
 * per-node fields a node record needs; not a whole NRes container.
 */

/** Res8 key: float32 position, float32 time in frames, s16 quaternion stored w, x, y, z (component = s16 / 32767). */
export interface MshKey {
  position: [number, number, number];
  time: number;
  /** Raw s16 components in stored order w, x, y, z. */
  quatWXYZ: [number, number, number, number];
}

/** What a node record holds for animation. */
export interface MshNode {
  name: string;
  /** Parent node index, -1 for a root. */
  parent: number;
  /** Index of the node's block in Res19, or MSH_NO_MAP. */
  animMapStart: number;
  /** Index into Res8 of the node's fallback key. */
  fallbackKey: number;
}

/** A whole MSH animation: the two payloads' contents and the nodes that use them. */
export interface MshAnimation {
  keys: MshKey[];
  /** Res19 words. */
  mapWords: Uint16Array;
  /** Res19 attr2: the global timeline length in frames. */
  frameCount: number;
  nodes: MshNode[];
}

/** A sampled node transform: position and the rotation as x, y, z, w (unit length). */
export interface MshPose {
  position: [number, number, number];
  rotation: [number, number, number, number];
}
