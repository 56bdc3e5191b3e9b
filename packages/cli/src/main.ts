#!/usr/bin/env node
import { runCli } from './commands.js';

const code = await runCli(process.argv.slice(2));
// -1: a long-running command (serve) keeps the process alive. A failure exits at once, even
// if something it started (a socket, a timer) would keep the event loop going.
if (code > 0) process.exit(code);
if (code === 0) process.exitCode = 0;
