import type { ServedCommand } from './served-command.js';

/** `gh api`: the existing runner (its own rule-7 planner, relay reads, fallback). */
export const API_COMMAND: ServedCommand = {
  async run(deps, output, plan) {
    const { runNativeApi } = await import('../../native-api-runner.js');
    return runNativeApi(deps, output, plan.args);
  },
};
