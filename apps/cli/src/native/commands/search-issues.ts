import { runSearchCommand } from './search-results.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** `gh search issues` through the relay (README "search"; see {@link runSearchCommand}). */
export const SEARCH_ISSUES_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runSearchCommand(
      'search issues',
      createSessionRelayPort(deps),
      plan,
      createJqRunner(deps),
    );
    return finishOutcome(deps, output, argv, outcome);
  },
};
