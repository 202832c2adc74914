import { it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { fuzzInput, targetByName } from './fuzz/harness';
it('dbg', async () => {
  for (const name of ['sev', 'se_define', 'glb']) {
    const t = targetByName(name);
    for (let i = 0; i < 400; i++) {
      const b = fuzzInput(t, 1, i);
      const t0 = performance.now();
      await t.run(b);
      const ms = performance.now() - t0;
      if (ms > 40) console.log(name, i, ms.toFixed(0), b.length, JSON.stringify(Buffer.from(b).toString('utf8').slice(0, 80)));
    }
  }
}, 120000);
