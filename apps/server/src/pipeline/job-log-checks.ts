import type { ForgeResponse, ForgeTransportError } from '@relay/forge-transport';
import type { Result } from '@relay/protocol';

/** Sends one GET (the path given) on a lane chosen by the pipeline. */
export type LaneRead = (path: string) => Promise<Result<ForgeResponse, ForgeTransportError>>;

/**
 * The job-log preflight: whether the job whose log is read has completed, from its public job
 * metadata (`GET /repos/{owner}/{repo}/actions/jobs/{job_id}`). Only a completed job's log is
 * immutable and may be cached for seven days; a failed preflight answers false, so the log is
 * fetched directly and not cached.
 *
 * @param read - sends the metadata request
 * @param logPath - the job-log path (`…/actions/jobs/{job_id}/logs`)
 */
export async function isJobCompleted(read: LaneRead, logPath: string): Promise<boolean> {
  if (!logPath.endsWith('/logs')) return false;
  const result = await read(logPath.slice(0, -'/logs'.length));
  if (!result.ok || result.value.status !== 200 || result.value.body.encoding !== 'json') {
    return false;
  }
  const job = result.value.body.body;
  return (
    typeof job === 'object' &&
    job !== null &&
    !Array.isArray(job) &&
    (job as Record<string, unknown>).status === 'completed'
  );
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
