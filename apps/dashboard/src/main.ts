import './dashboard.css';
import { PANEL_IDS, toPanelModels } from './panel-models.js';
import { renderPanel, type ChartDrawer } from './panel-view.js';
import {
  RelayReadError,
  isDashboardWindow,
  readDashboardData,
  type DashboardWindow,
} from './relay-client.js';
import { clearSession, readSession, writeSession, type DashboardSession } from './session-store.js';

/** Refreshes every minute while signed in. */
const REFRESH_MS = 60_000;

interface ChartChunk {
  readonly drawChart: ChartDrawer;
  readonly destroyCharts: () => void;
}

function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`missing #${id}`);
  return node;
}

const signInSection = byId('sign-in', HTMLElement);
const signInForm = byId('sign-in-form', HTMLFormElement);
const signInError = byId('sign-in-error', HTMLElement);
const poolInput = byId('pool', HTMLInputElement);
const tokenInput = byId('token', HTMLInputElement);
const dashboard = byId('dashboard', HTMLElement);
const signOut = byId('sign-out', HTMLButtonElement);
const signedInAs = byId('signed-in-as', HTMLElement);
const windowSelect = byId('window', HTMLSelectElement);
const refreshButton = byId('refresh', HTMLButtonElement);
const updated = byId('updated', HTMLElement);
const loadError = byId('load-error', HTMLElement);
const chartStatus = byId('chart-status', HTMLElement);

// The charts are a chunk of their own, loaded while the first answers arrive: when it cannot
// load (blocked, offline, a browser without canvas), every panel keeps its table.
const chartChunk: Promise<ChartChunk | undefined> = import('./chart-panels.js').then(
  (chunk) => chunk,
  () => undefined,
);

let refreshTimer: number | undefined;
let generation = 0;

function showSignIn(message = ''): void {
  window.clearInterval(refreshTimer);
  refreshTimer = undefined;
  dashboard.hidden = true;
  signOut.hidden = true;
  signedInAs.textContent = '';
  signInSection.hidden = false;
  signInError.textContent = message;
  tokenInput.value = '';
  document.body.dataset.state = 'signed-out';
}

function selectedWindow(): DashboardWindow {
  return isDashboardWindow(windowSelect.value) ? windowSelect.value : '24h';
}

async function refresh(session: DashboardSession): Promise<void> {
  const mine = ++generation;
  refreshButton.disabled = true;
  try {
    const data = await readDashboardData({
      base: window.location.href,
      pool: session.pool,
      token: session.token,
      window: selectedWindow(),
    });
    const charts = await chartChunk;
    if (mine !== generation) return;
    loadError.hidden = true;
    charts?.destroyCharts();
    let drawn = 0;
    for (const model of toPanelModels(data)) {
      const section = dashboard.querySelector<HTMLElement>(`[data-panel="${model.id}"]`);
      if (section !== null && renderPanel(section, model, charts?.drawChart)) drawn++;
    }
    chartStatus.hidden = charts !== undefined;
    chartStatus.textContent =
      charts === undefined
        ? 'Charts are unavailable in this browser: every panel shows its table.'
        : '';
    document.body.dataset.charts = charts === undefined ? 'unavailable' : String(drawn);
    updated.textContent = `Updated ${new Date().toISOString().slice(11, 19)} UTC`;
    document.body.dataset.state = 'loaded';
  } catch (error) {
    if (mine !== generation) return;
    if (error instanceof RelayReadError && error.code === 'unauthorized') {
      clearSession(sessionStorage);
      showSignIn('The relay refused this token (expired, revoked or mistyped). Sign in again.');
      return;
    }
    if (error instanceof RelayReadError && error.code === 'pool_forbidden') {
      clearSession(sessionStorage);
      showSignIn(`This token holds no grant on pool “${session.pool}”.`);
      return;
    }
    loadError.hidden = false;
    loadError.textContent = 'The relay could not be read; the figures below may be out of date.';
    document.body.dataset.state = 'error';
  } finally {
    if (mine === generation) refreshButton.disabled = false;
  }
}

function showDashboard(session: DashboardSession): void {
  signInSection.hidden = true;
  dashboard.hidden = false;
  signOut.hidden = false;
  signedInAs.textContent = `pool ${session.pool}`;
  for (const id of PANEL_IDS) {
    const section = dashboard.querySelector<HTMLElement>(`[data-panel="${id}"]`);
    if (section !== null) delete section.dataset.populated;
  }
  window.clearInterval(refreshTimer);
  refreshTimer = window.setInterval(() => {
    void refresh(session);
  }, REFRESH_MS);
  void refresh(session);
}

/** Whether the pool field is still empty (the user may type while discovery is read). */
const isPoolEmpty = (): boolean => poolInput.value === '';

async function prefillPool(): Promise<void> {
  if (!isPoolEmpty()) return;
  try {
    const response = await fetch(new URL('../.well-known/relay', window.location.href), {
      credentials: 'omit',
    });
    if (!response.ok) return;
    const discovery = (await response.json()) as { default_pool?: unknown };
    if (typeof discovery.default_pool === 'string' && isPoolEmpty()) {
      poolInput.value = discovery.default_pool;
    }
  } catch {
    // The pool stays for the user to type.
  }
}

signInForm.addEventListener('submit', (event) => {
  // Never submitted: the token goes to sessionStorage, not into a request of the form's.
  event.preventDefault();
  const session = { pool: poolInput.value.trim(), token: tokenInput.value.trim() };
  tokenInput.value = '';
  if (session.pool === '' || session.token === '') {
    signInError.textContent = 'Enter a pool and a caller token.';
    return;
  }
  writeSession(sessionStorage, session);
  signInError.textContent = '';
  showDashboard(session);
});

signOut.addEventListener('click', () => {
  generation++;
  clearSession(sessionStorage);
  showSignIn();
});

windowSelect.addEventListener('change', () => {
  const session = readSession(sessionStorage);
  if (session !== undefined) void refresh(session);
});

refreshButton.addEventListener('click', () => {
  const session = readSession(sessionStorage);
  if (session !== undefined) void refresh(session);
});

const existing = readSession(sessionStorage);
if (existing === undefined) {
  showSignIn();
  void prefillPool();
} else {
  showDashboard(existing);
}
