import { escapeControls } from '../errors';
import { MSH_NO_MAP } from './constants';
import type { MshAnimation } from './types';

/**
 * A readable summary of an MSH animation for `actguy info`: attributes, then per node its map, fallback key and key
 * count. Node names come from a `.nodes.json`, a file people send: their control characters are shown escaped.
 */
export function describeMshAnimation(a: MshAnimation): string {
  const lines = [
    `MSH animation: Res8 ${a.keys.length} keys (${a.keys.length * 24} bytes, attr1 ${a.keys.length}, attr3 4), Res19 ${a.mapWords.length} words (attr1 ${a.mapWords.length}, attr2 ${a.frameCount} frames, attr3 2)`,
    'nodes (index name, parent, anim_map_start, fallback_key, keys, key times):',
  ];
  let first = 0;
  a.nodes.forEach((n, j) => {
    const count = n.fallbackKey - first + 1;
    const times = a.keys.slice(first, n.fallbackKey + 1).map((k) => k.time);
    const shown = times.length > 12 ? `${times.slice(0, 12).join(' ')} ...` : times.join(' ');
    lines.push(
      `  ${String(j).padStart(3)} ${escapeControls(n.name).padEnd(20)} parent ${String(n.parent).padStart(3)}, map ${n.animMapStart === MSH_NO_MAP ? 'none (static)' : String(n.animMapStart).padStart(6)}, fallback ${n.fallbackKey}, ${count} key${count === 1 ? '' : 's'}: ${shown}`,
    );
    first = n.fallbackKey + 1;
  });
  return lines.join('\n');
}
