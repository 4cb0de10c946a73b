import { createProjectConfig } from '../../vitest.shared.ts';

export default createProjectConfig('@relay/forge-transport');
