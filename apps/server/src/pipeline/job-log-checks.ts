import type { ForgeResponse, ForgeTransportError } from '@relay/forge-transport';
import type { Result } from '@relay/protocol';

/** Sends one GET (the path given) on a lane chosen by the pipeline. */
export type LaneRead = (path: string) => Promise<Result<ForgeResponse, ForgeTransportError>>;

/** The JSON object of a 200 answer, if it is one. */
function objectOf(
  result: Result<ForgeResponse, ForgeTransportError>,
): Record<string, unknown> | undefined {
  if (!result.ok || result.value.status !== 200 || result.value.body.encoding !== 'json') {
    return undefined;
  }
  const body = result.value.body.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
}

const JOB_LOG_PATH = /^(\/repos\/[^/]+\/[^/]+)\/actions\/jobs\/[^/]+\/logs$/;

/**
 * The job-log preflight: whether the run that owns the job whose log is read has completed
 * (SPEC.md: job logs are cached "only after the owning run completes"; a job completes before
 * its run, and a re-run attempt of a completed run can still replace its logs). It reads the
 * public job metadata (`GET /repos/{owner}/{repo}/actions/jobs/{job_id}`) for the job's `run_id`,
 * then the run (`GET /repos/{owner}/{repo}/actions/runs/{run_id}`): the log is cacheable only when
 * both say `completed`. Any failed or unexpected answer answers false, so the log is fetched
 * directly and not cached.
 *
 * @param read - sends each metadata request
 * @param logPath - the job-log path (`/repos/{owner}/{repo}/actions/jobs/{job_id}/logs`)
 */
export async function isRunCompleted(read: LaneRead, logPath: string): Promise<boolean> {
  const repoPath = JOB_LOG_PATH.exec(logPath)?.[1];
  if (repoPath === undefined) return false;
  const job = objectOf(await read(logPath.slice(0, -'/logs'.length)));
  if (job?.status !== 'completed') return false;
  const runId = job.run_id;
  if (typeof runId !== 'number' || !Number.isSafeInteger(runId) || runId <= 0) return false;
  const run = objectOf(await read(`${repoPath}/actions/runs/${String(runId)}`));
  return run?.status === 'completed';
}

/**
 * Reads the answer of a job-log existence probe (the log endpoint requested without following
 * its signed redirect): `present` when the forge still offers the log (its redirect, or the log
 * itself), `gone` on 404/410, `unknown` otherwise.
 *
 * @param result - the probe's outcome
 */
export function judgeLogProbe(
  result: Result<ForgeResponse, ForgeTransportError>,
): 'present' | 'gone' | 'unknown' {
  if (!result.ok) {
    const status = result.error.status;
    return result.error.code === 'forge_redirect_denied' && status !== undefined && status < 400
      ? 'present'
      : 'unknown';
  }
  if (result.value.status === 200) return 'present';
  return result.value.status === 404 || result.value.status === 410 ? 'gone' : 'unknown';
}
