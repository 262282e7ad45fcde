/** `gatehouse rbac show|set`: a project's RBAC policy, as the JSON the management API speaks. */
import { readFile } from 'node:fs/promises';
import { rbacPolicyFields } from '@gatehouse/protocol/endpoints';
import { isFailure } from '../result.js';
import { projectPolicy, setPolicy } from '../tenancy/rbac/service.js';
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
    await withProject(io, values.project, async (ctx, project) => {
      io.stdout(asJson(await projectPolicy(ctx.db, project.id)));
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
    const parsed = rbacPolicyFields.safeParse(json);
    if (!parsed.success) {
      const lines = parsed.error.issues.map(
        (i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`,
      );
      throw new UsageError(`${values.file} is not a policy:\n${lines.join('\n')}`);
    }
    await withProject(io, values.project, async (ctx, project) => {
      const result = await setPolicy(ctx, project, parsed.data);
      if (isFailure(result)) throw new UsageError(`${result.failure}: ${result.message}`);
      io.stdout(`Policy saved.\n${asJson(result)}`);
    });
  },
});
