import { createProjectConfig } from '../../vitest.shared.ts';

export default createProjectConfig('@relay/dashboard');
