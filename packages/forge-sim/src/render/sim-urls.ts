/** Base URLs of the four simulated hosts (no trailing slash). */
export interface SimUrls {
  /** API host (what api.github.com is). */
  readonly api: string;
  /** Web host: HTML, .patch and .diff pages (github.com). */
  readonly web: string;
  /** Raw-content host (raw.githubusercontent.com). */
  readonly raw: string;
  /** Signed log-download host (the Actions log blob host). */
  readonly log: string;
}

/** GitHub's real hosts, which example bodies are written against. */
export const GITHUB_URLS: SimUrls = {
  api: 'https://api.github.com',
  web: 'https://github.com',
  raw: 'https://raw.githubusercontent.com',
  log: 'https://pipelines.actions.githubusercontent.com',
};
