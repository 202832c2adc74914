/**
 * A build cache's entries as tests look at them (docs/cache.md): the build's own cache tests and Export All's
 * (projectExport.ts reuses the build's cache) rewrite the same entries to prove none is trusted unverified.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMt3 } from '../../shared/mt3/read';
import { gvStrCode } from '../../shared/strcode';
import { decodeEntry } from '../build/buildCache';

/** Every entry file under a cache folder, relative, sorted. */
export function cacheEntries(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.mt3c'))
    .sort();
}

/** The entry of the motion named `name` in a cache (by the name hash its MT3 carries). */
export function cacheEntryOf(
  cache: string,
  name: string,
): { file: string; key: string; claim: Record<string, unknown>; bytes: Uint8Array } {
  for (const f of cacheEntries(cache)) {
    const key = f.split('/').pop()!.replace('.mt3c', '');
    const e = decodeEntry(key, readFileSync(join(cache, f)))!;
    if (readMt3(e.bytes).name === gvStrCode(name)) return { file: join(cache, f), key, ...e };
  }
  throw new Error(`no entry for ${name}`);
}
