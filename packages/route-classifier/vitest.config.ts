import { createProjectConfig } from '../../vitest.shared.ts';

export default createProjectConfig('@relay/route-classifier');
