/**
 * A SAML worker thread (saml-pool.ts starts them): parses and checks one response at a time, so
 * that neither XML parsing nor signature verification ever runs on the server's main thread.
 */
import { parentPort } from 'node:worker_threads';
import { checkSamlResponse, type SamlCheckInput } from './saml-verify.js';

/** A job as the pool posts it. */
export interface SamlJob {
  id: number;
  input: SamlCheckInput;
}

const port = parentPort;
if (port) {
  port.on('message', (job: SamlJob) => {
    port.postMessage({ id: job.id, result: checkSamlResponse(job.input) });
  });
  port.postMessage({ ready: true });
}
