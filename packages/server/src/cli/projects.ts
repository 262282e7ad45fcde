/** `gatehouse project create`: a project and the credentials a host app needs. */
import { defineCommand, option, toggle } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

/** Creates a project and prints its id, public token and secret key (shown only this once). */
export const projectCreate = defineCommand({
  name: ['project', 'create'],
  summary: 'Create a project and print its credentials',
  usage: '--name N [--live] [--origin URL]… [--redirect-url URL]… [--allow-org-creation]',
  description:
    'Creates a project (test environment unless --live) and prints its id, public token and ' +
    'secret key. The secret is shown only once. Each --redirect-url is allowed for login, signup ' +
    'and discovery; the first one is the default.',
  options: {
    name: option('N', 'The project’s name').required(),
    live: toggle('Create a live project instead of a test one'),
    origin: option('URL', 'An origin whose pages may call the SDK API').repeatable(),
    'redirect-url': option('URL', 'A URL sign-in may redirect to').repeatable(),
    'allow-org-creation': toggle('Let people create organizations during discovery'),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const redirects = values['redirect-url'];
    await withRuntime(io, async ({ admin }) => {
      const created = await admin.createProject({
        name: values.name,
        environment: values.live ? 'live' : 'test',
        authorizedOrigins: values.origin,
        redirectUrls: { login: redirects, signup: redirects, discovery: redirects },
        createOrganizationEnabled: values['allow-org-creation'],
      });
      io.stdout(
        `Project created. The secret is shown only once: store it now.\n` +
          `project_id:   ${created.project_id}\npublic_token: ${created.public_token}\n` +
          `secret_id:    ${created.secret_id}\nsecret:       ${created.secret}\n`,
      );
    });
  },
});
