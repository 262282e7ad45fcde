#!/usr/bin/env node
// `npm start`: a CommonJS launcher so that libuv's thread pool is sized to the machine before
// anything starts it (password hashing runs there; see packages/server/src/threadpool.ts).
'use strict';
const { availableParallelism } = require('node:os');

if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(Math.max(2, availableParallelism()));
}
import('../dist/main.js').catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
