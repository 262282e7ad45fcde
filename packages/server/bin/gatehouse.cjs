#!/usr/bin/env node
// The `gatehouse` command. A CommonJS launcher so that libuv's thread pool is sized before
// anything starts it: imported scrypt, PBKDF2 and bcrypt hashes are checked there, and more
// threads than cores only make them and the event loop take turns (src/threadpool.ts; argon2id
// has threads of its own). An ES module entry would be too late, since the module loader itself
// starts the pool.
'use strict';
const { availableParallelism } = require('node:os');

if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(Math.max(2, availableParallelism()));
}
import('../dist/cli.js').then(
  (cli) => cli.main(),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
