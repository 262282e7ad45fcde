/** What `npm start` prints once the demo listens: where to go, and the demo project's ids. */
import type { DemoHandle } from './demo.js';

/**
 * The start-up lines: the app, the dev inbox, the project's public token and id, and where its
 * secret key is. The key itself is never printed: it stays in the state file.
 *
 * @example
 * console.log(startMessage(await startDemo()));
 */
export function startMessage(
  demo: Pick<DemoHandle, 'url' | 'publicToken' | 'projectId' | 'stateFile'>,
): string {
  return [
    `Gatehouse demo running at ${demo.url}/_app`,
    `Dev inbox: ${demo.url}/_dev/inbox`,
    `Public token: ${demo.publicToken}`,
    `Project id: ${demo.projectId}`,
    `Secret key: the demo's backend keeps its own in ${demo.stateFile}; make one for yourself ` +
      `with \`npx gatehouse secret create --project ${demo.projectId}\``,
  ].join('\n');
}
