#!/usr/bin/env node
// Interleaved A/B of whole processes, for the CLI start-up work of issue 23 item 4 (BENCHMARKS.md,
// "CLI start-up, round 2"). Usage:
//   node scripts/bench/cli-ab.mjs ROUNDS 'label=command args…' 'label=command args…' …
// Each round runs every command once, in the order given, after one warm-up run of each; a
// command is split on spaces (use `env NAME=value …` for variables). Prints, per command, the
// median wall time and the median CPU time (user + system, from /usr/bin/time), each as a ratio
// to the first command's and as the difference from it. A command that exits non-zero aborts.
// A build copied out of apps/cli (to compare two) needs a package.json of {"type":"module"}
// beside its main.js: without one, Node parses every chunk to detect its module syntax, which adds
// about 15 ms of CPU to each process of both arms.
import { spawn } from 'node:child_process';

const rounds = Number(process.argv[2]);
const cases = process.argv.slice(3).map((arg) => {
  const at = arg.indexOf('=');
  return { name: arg.slice(0, at), argv: arg.slice(at + 1).split(' ') };
});
if (!Number.isInteger(rounds) || rounds < 1 || cases.length === 0) {
  process.stderr.write("usage: cli-ab.mjs ROUNDS 'label=command args…' …\n");
  process.exit(2);
}

function run(argv) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'CPU %U %S', ...argv], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || cpu === null)
        reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (const { argv } of cases) await run(argv);
const samples = cases.map(() => ({ wall: [], cpu: [] }));
for (let round = 0; round < rounds; round += 1) {
  for (const [index, { argv }] of cases.entries()) {
    const { wall, cpu } = await run(argv);
    samples[index].wall.push(wall);
    samples[index].cpu.push(cpu);
  }
}
const baseWall = median(samples[0].wall);
const baseCpu = median(samples[0].cpu);
console.log(
  `${rounds} interleaved rounds; medians; wall and CPU (user+sys), ratio to the first, +ms`,
);
for (const [index, { name }] of cases.entries()) {
  const wall = median(samples[index].wall);
  const cpu = median(samples[index].cpu);
  console.log(
    `${name.padEnd(30)} wall ${wall.toFixed(1).padStart(7)} ms ×${(wall / baseWall).toFixed(2)} (+${(wall - baseWall).toFixed(1)})` +
      ` | cpu ${cpu.toFixed(0).padStart(4)} ms ×${(cpu / baseCpu).toFixed(2)} (+${(cpu - baseCpu).toFixed(0)})`,
  );
}
