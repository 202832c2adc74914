// @ts-check
// stryker.config.mjs with the unit suite narrowed to MUTATE_TESTS (see vitest.mutate.config.ts) and a
// shorter hang allowance: a per-module run then takes minutes instead of hours. Example:
//   MUTATE_TESTS=shared/mtn npx stryker run stryker.narrow.mjs --concurrency 1 --mutate 'shared/mtn/read.ts'
import base from './stryker.config.mjs';

export default { ...base, vitest: { configFile: 'vitest.mutate.config.ts' }, timeoutMS: 8000 };
