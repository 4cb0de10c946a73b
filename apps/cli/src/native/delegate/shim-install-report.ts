import { describeShimAction } from './shim-install-plan.js';
import { SHIM_VERIFICATION_SHELLS } from './shim-verification.js';
import type { InstallShimError, InstallShimReport } from './shim-installer.js';

function indent(text: string): string {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `    ${line}\n`)
    .join('');
}

/** The text `relay install-shim` prints on stdout for a report. */
export function formatInstallShimReport(report: InstallShimReport): string {
  const actions = report.plan.actions.map((action) => `  ${describeShimAction(action)}\n`).join('');
  const verified = report.verifications
    .map((verification) => `verified: ${verification.shell}: gh is ${verification.gh}\n`)
    .join('');
  switch (report.outcome) {
    case 'dry_run': {
      const head = `relay install-shim${report.remove ? ' --remove' : ''} --dry-run: nothing was changed.\n`;
      if (report.plan.actions.length === 0) {
        return `${head}${report.remove ? 'Not installed' : 'Already installed'}: nothing to do.\n`;
      }
      if (report.remove) return `${head}The plan:\n${actions}`;
      const shells = SHIM_VERIFICATION_SHELLS.map((shell) => shell.name).join(' and ');
      return (
        `${head}The plan:\n${actions}` +
        `The managed block:\n${indent(report.plan.block)}` +
        `Then: ${shells} must resolve gh to ${report.paths.shimPath} with RELAY_NATIVE_CLI=${report.nativeCli ?? ''}.\n`
      );
    }
    case 'unchanged':
      return report.remove
        ? 'relay install-shim --remove: not installed; nothing changed.\n'
        : `relay install-shim: already installed; nothing changed.\n${verified}`;
    case 'installed':
      return (
        `relay install-shim: installed (native gh pinned: ${report.nativeCli ?? ''}).\n${actions}${verified}` +
        'Open a new shell (or run `exec zsh`) to use the shim.\n'
      );
    case 'removed':
      return `relay install-shim --remove: removed.\n${actions}`;
  }
}

function errorMessage(error: InstallShimError): string {
  switch (error.code) {
    case 'shell_unsupported':
      return error.subject === undefined
        ? '$SHELL is unset, so the shell is unknown: only zsh is supported (pass --shell zsh).'
        : `Only zsh is supported, not ${error.subject}.`;
    case 'zdotdir_relative':
      return `ZDOTDIR is not an absolute path (${JSON.stringify(error.subject ?? '')}): zsh reads it from each shell's working directory. Set an absolute ZDOTDIR (or unset it), then install.`;
    case 'zsh_missing':
      return 'zsh was not found ($SHELL, then PATH): it is needed to verify the shim.';
    case 'native_cli_missing':
      return `No real gh to pin: ${error.subject ?? ''} Install gh, or set RELAY_NATIVE_CLI to its absolute path.`;
    case 'relay_path_unknown':
      return error.subject === undefined
        ? "The running relay's own path is unknown: run the relay bin itself."
        : `${error.subject} is not executable: run the built relay bin (not relay from source).`;
    case 'shim_path_occupied':
      return `${error.subject ?? ''} exists and is not a symlink: move it away first.`;
    case 'startup_block_damaged':
      return `${error.subject ?? ''} has a relay install-shim marker without its pair (or two blocks): fix it by hand.`;
    case 'shim_verification_failed': {
      const found = (error.verifications ?? [])
        .filter((verification) => !verification.ok)
        .map(
          (verification) =>
            `${verification.shell} resolves gh to ${verification.gh === '' ? 'nothing' : verification.gh} (RELAY_NATIVE_CLI=${verification.nativeCli})`,
        )
        .join('; ');
      return `Installed, but ${found}: a startup file or a system file reorders PATH after the managed block.`;
    }
  }
}

/** The one stderr line of an installer failure: `relay: <message> (<code>)`. */
export function formatInstallShimError(error: InstallShimError): string {
  return `relay: ${errorMessage(error)} (${error.code})\n`;
}
