const fs = require('node:fs');
const path = require('node:path');
require('esbuild').buildSync({ entryPoints: ['electron/project/textCheck.ts'], bundle: true, platform: 'node', format: 'cjs', outfile: '/tmp/tc/textCheck.cjs', logLevel: 'error' });
const { workerTextChecker } = require('/tmp/tc/textCheck.cjs');
const text = fs.readFileSync('assets/sample.actguy.json', 'utf8');
(async () => {
  const check = workerTextChecker(path.resolve('dist/electron/textCheckWorker.cjs'));
  const xs = [];
  for (let i = 0; i < 21; i++) { const t = process.hrtime.bigint(); await check({ kind: 'project', path: '/p/a.actguy.json', text }); xs.push(Number(process.hrtime.bigint() - t) / 1e6); }
  const first = xs.shift(); xs.sort((a, b) => a - b);
  console.log(`text check (sample project): first ${first.toFixed(1)} ms (worker start), then median ${xs[10].toFixed(2)} ms, max ${xs[19].toFixed(2)} ms`);
})();
