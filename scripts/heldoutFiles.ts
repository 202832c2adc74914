/**
 * The held-out capture files the scripts read (`npm run heldout`, `npm run cli-sweep`): every .bvh, .fbx, .gltf and
 * .glb under a folder (the Debian package assimp-testmodels puts them in /usr/share/assimp/models), walked in name
 * order so that runs list them alike. A folder that is not there holds none.
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

const EXTENSIONS = new Set(['.bvh', '.fbx', '.gltf', '.glb']);

export function heldOutFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
