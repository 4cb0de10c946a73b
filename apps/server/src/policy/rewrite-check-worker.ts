/**
 * The worker thread of the rewrite-check offload (`rewrite-check-offload.ts`): it compiles the
 * rules of a policy revision once and checks the values it is sent against them, so that an
 * expensive check never blocks the server's event loop. Self-contained: it imports nothing of the
 * server, only the rewrite engine, so that it runs from source and from the build alike.
 */
import { parentPort } from 'node:worker_threads';
import { compileRules, type RuleSet } from '@relay/rewrite-engine';
import type { StringRewriteRule } from '@relay/protocol';

/** A check request: the policy's stamp, its rules when the worker may not hold them, the values. */
interface CheckJob {
  readonly id: number;
  readonly stamp: string;
  readonly rules?: readonly StringRewriteRule[];
  readonly values: readonly string[];
}

let current: { readonly stamp: string; readonly ruleSet: RuleSet } | undefined;

function passes(ruleSet: RuleSet, value: string): boolean {
  try {
    return ruleSet.check(value).ok;
  } catch {
    return false;
  }
}

parentPort?.postMessage({ phase: 'ready' });

parentPort?.on('message', (job: CheckJob) => {
  if (job.rules !== undefined && current?.stamp !== job.stamp) {
    const compiled = compileRules(job.rules);
    current = compiled.ok ? { stamp: job.stamp, ruleSet: compiled.value } : undefined;
    // The deadline of the check counts from here: compiling is bounded by the policy's limits.
    parentPort?.postMessage({ id: job.id, phase: 'compiled' });
  }
  if (current?.stamp !== job.stamp) {
    parentPort?.postMessage({ id: job.id, verdict: 'unknown_policy' });
    return;
  }
  const { ruleSet } = current;
  const pass = job.values.every((value) => passes(ruleSet, value));
  parentPort?.postMessage({ id: job.id, verdict: pass ? 'pass' : 'deny' });
});
