/** `gatehouse secret create|list|delete`: a project's secret keys, for handing over to a new one. */
import { defineCommand, option } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withProject } from './open.js';

/** Adds a secret key and prints it, once. */
export const secretCreate = defineCommand({
  name: ['secret', 'create'],
  summary: 'Add a secret key to a project (printed once)',
  usage: '--project ID',
  description:
    'Adds a secret key for the management API and prints it; only its hash is stored, so it ' +
    'cannot be shown again. The project’s other keys keep working: deploy the new key, then ' +
    'delete the old one with `gatehouse secret delete`. A project holds at most five keys.',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      const created = await admin.createSecret(values.project);
      io.stdout(
        `Secret key created. It is shown only now: keep it in your secret store.\n` +
          `secret_id:  ${created.secret_id}\ncreated_at: ${created.created_at}\n` +
          `secret:     ${created.secret}\n`,
      );
    });
  },
});

/** Lists the project's secret keys by id. */
export const secretList = defineCommand({
  name: ['secret', 'list'],
  summary: 'List a project’s secret keys (ids, never the keys)',
  usage: '--project ID',
  description:
    'Prints each secret key’s id and creation time, oldest first. To learn which id a key has, ' +
    'call GET /v1/b2b/project/secrets with it: its entry says used_by_this_request.',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      const secrets = await admin.listSecrets(values.project);
      io.stdout(secrets.map((s) => `${s.secret_id}  created ${s.created_at}\n`).join(''));
    });
  },
});

/** Deletes a secret key; it stops working at once. */
export const secretDelete = defineCommand({
  name: ['secret', 'delete'],
  summary: 'Delete a project’s secret key (it stops working at once)',
  usage: '--project ID --secret SECRET_ID',
  description:
    'Deletes a secret key: every running instance refuses it from the next call on. The ' +
    'project’s last key cannot be deleted; add another one first.',
  options: {
    project: option('ID', 'The project').required(),
    secret: option('SECRET_ID', 'The key’s id, as `gatehouse secret list` prints it').required(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      await admin.deleteSecret(values.project, values.secret);
      io.stdout(`Secret key deleted.\nsecret_id: ${values.secret}\n`);
    });
  },
});
