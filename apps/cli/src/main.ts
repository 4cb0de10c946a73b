#!/usr/bin/env node
import { createCli } from './create-cli.js';
import { createNodeDependencies } from './node-dependencies.js';
import { colorDepthFor } from './terminal-style.js';

const stdoutIsTTY = process.stdout.isTTY;
await createCli().runExit(process.argv.slice(2), {
  colorDepth: colorDepthFor(
    process.env,
    stdoutIsTTY,
    stdoutIsTTY ? process.stdout.getColorDepth() : 1,
  ),
  deps: createNodeDependencies({ selfPath: process.argv[1] }),
});
