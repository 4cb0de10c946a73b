#!/usr/bin/env node
import { createCli } from './create-cli.js';
import { createNodeDependencies } from './node-dependencies.js';

await createCli().runExit(process.argv.slice(2), {
  deps: createNodeDependencies({ selfPath: process.argv[1] }),
});
