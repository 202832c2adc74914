/** docs/formats.md 7 constants. Assigned values never change. */

/** Bytes per Res8 key: f32 x3 position, f32 time, s16 x4 quaternion. */
export const MSH_KEY_BYTES = 24;
/** Res8 attr3. */
export const MSH_RES8_ATTR3 = 4;
/** Res19 attr3. */
export const MSH_RES19_ATTR3 = 2;
/** anim_map_start of a node without a map (static: its fallback key always). */
export const MSH_NO_MAP = 0xffff;
/** s16 quaternion component scale. */
export const MSH_QUAT_SCALE = 32767;
