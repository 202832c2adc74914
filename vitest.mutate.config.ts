import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The unit suite narrowed for a per-module mutation run (stryker.narrow.mjs): MUTATE_TESTS is a
 * comma-separated list of test folders or files, e.g. MUTATE_TESTS='shared/mtn' (default: shared).
 * A mutant killed here is killed by the full suite too, so a narrowed score is a lower bound.
 */
const include = (process.env.MUTATE_TESTS ?? 'shared')
  .split(',')
  .map((g) => g.trim().replace(/\/+$/, ''))
  .filter(Boolean)
  .map((g) => (g.endsWith('.test.ts') ? g : `${g}/**/*.test.ts`));

export default defineConfig({ ...base, test: { ...base.test, include } });
