import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/**
 * `relay install-shim [--shell zsh] [--dry-run] [--remove]`: the transparent gh shim (a `gh`
 * symlink to relay first on PATH in every zsh, the real gh pinned). See
 * `native/delegate/shim-installer.ts`.
 */
export class InstallShimCommand extends RelayCommand {
  static override paths = [['install-shim']];

  static override usage = Command.Usage({
    category: 'Native CLI',
    description: 'make `gh` run relay (zsh only)',
    details: `
      Links $XDG_DATA_HOME/relay/bin/gh (else ~/.local/share/relay/bin/gh) to relay, appends a
      marked block to $ZDOTDIR/.zshenv and $ZDOTDIR/.zlogin (ZDOTDIR else the home directory)
      that puts that directory first on PATH and pins the real gh as RELAY_NATIVE_CLI, then
      checks that zsh -c and zsh -l -c resolve gh to the shim. A second run changes nothing.
      With --dry-run it prints the plan and changes nothing; with --remove it takes everything
      out again, the startup files back to their exact bytes. Another shell exits 2.
    `,
    examples: [
      ['Show the plan', '$0 install-shim --dry-run'],
      ['Install', '$0 install-shim'],
      ['Uninstall', '$0 install-shim --remove'],
    ],
  });

  shell = Option.String('--shell', { description: 'the shell (only zsh; default: $SHELL)' });
  dryRun = Option.Boolean('--dry-run', false, { description: 'print the plan, change nothing' });
  remove = Option.Boolean('--remove', false, { description: 'uninstall the shim' });

  override async run(deps: CliDependencies): Promise<number> {
    const [{ runShimInstaller, INSTALL_SHIM_ERRORS }, { createNodeShimFileSystem }, report] =
      await Promise.all([
        import('../native/delegate/shim-installer.js'),
        import('../native/delegate/shim-file-system.js'),
        import('../native/delegate/shim-install-report.js'),
      ]);
    const result = await runShimInstaller(
      { deps, fs: createNodeShimFileSystem() },
      { shell: this.shell, dryRun: this.dryRun, remove: this.remove },
    );
    if (!result.ok) {
      this.context.stderr.write(report.formatInstallShimError(result.error));
      return INSTALL_SHIM_ERRORS[result.error.code].exitCode;
    }
    this.context.stdout.write(report.formatInstallShimReport(result.value));
    return 0;
  }
}
