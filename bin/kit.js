#!/usr/bin/env node
import '../out/server/src/cli/main.js';
