import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/**
 * `relay native <gh argv>`: every argv reaches the dispatcher (a proxy: clipanion never
 * answers "Command not found" under `native`). `relay native api …` keeps its own command.
 */
export class NativeCommand extends RelayCommand {
  static override paths = [['native']];

  static override usage = Command.Usage({
    category: 'Native CLI',
    description: 'gh, with supported reads served by the relay',
    details: `
      Takes any gh command line. Supported read shapes are served through the relay; every
      other one (unknown commands and flags, --web, --template, terminal output, writes, and
      reads not served yet) runs the real gh (RELAY_NATIVE_CLI, else the first gh on PATH)
      with the same arguments, after one stderr line naming the reason (RELAY_QUIET_FALLBACK=1
      silences it). RELAY_NO_FALLBACK=1 fails instead (fallback_local, exit 1).
    `,
    examples: [
      ['A pull request', '$0 native pr view 1 -R acme/widgets'],
      ['Anything else runs gh', '$0 native pr create --fill'],
    ],
  });

  args = Option.Proxy();

  override async run(deps: CliDependencies): Promise<number> {
    const { dispatchNative } = await import('../native/native-dispatcher.js');
    return dispatchNative(deps, this.context, this.args);
  }
}
