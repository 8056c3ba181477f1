#!/usr/bin/env node
// The `hookmd` command; the implementation is compiled into dist/cli.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
