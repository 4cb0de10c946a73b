#!/usr/bin/env node
import { createCli } from './create-cli.js';

await createCli().runExit(process.argv.slice(2));
