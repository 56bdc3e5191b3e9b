#!/usr/bin/env node
import { runCli } from './commands.js';

const code = await runCli(process.argv.slice(2));
// -1: a long-running command (serve) keeps the process alive.
if (code >= 0) process.exitCode = code;
