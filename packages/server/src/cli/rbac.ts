/** `gatehouse rbac show|set`: a project's RBAC policy, as the JSON the management API speaks. */
import { readFile } from 'node:fs/promises';
import type { PolicyInput } from '../products/management/admin.js';
import { defineCommand, option, UsageError } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withProject } from './open.js';

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Prints the whole policy. */
export const rbacShow = defineCommand({
  name: ['rbac', 'show'],
  summary: "Show a project's RBAC policy (roles and resources) as JSON",
  usage: '--project ID',
  description:
    'Prints the policy bootstrap publishes and the server enforces: the built-in member and ' +
    'admin roles and stytch.* resources, then the project’s own. The output is a valid input of ' +
    '`gatehouse rbac set`.',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      io.stdout(asJson(await admin.rbacPolicy(values.project)));
    });
  },
});

/** Replaces the project's own roles and resources from a JSON file. */
export const rbacSet = defineCommand({
  name: ['rbac', 'set'],
  summary: "Replace a project's custom roles and resources from a JSON file",
  usage: '--project ID --file FILE',
  description:
    'Reads {"roles": [...], "resources": [...]} as `gatehouse rbac show` prints it and makes it ' +
    'the project’s policy, all or nothing. Roles left out are deleted and taken from members; ' +
    'member and admin stay, with at least their built-in permissions; built-in resources may be ' +
    'listed only unchanged. Every permission must name an existing resource and its actions (or *).',
  options: {
    project: option('ID', 'The project').required(),
    file: option('FILE', 'The policy as JSON').required(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    let text: string;
    try {
      text = await readFile(values.file, 'utf8');
    } catch {
      throw new UsageError(`Cannot read ${values.file}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UsageError(`${values.file} is not JSON`);
    }
    await withProject(io, values.project, async (admin) => {
      // The service checks the shape as the management API does (invalid_request names the field).
      const saved = await admin.setRbacPolicy(values.project, json as PolicyInput);
      io.stdout(`Policy saved.\n${asJson(saved)}`);
    });
  },
});
