/** `gatehouse project list`: the projects in the database, to find a PROJECT_ID. */
import { defineCommand } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

/** Lists every project: id, environment, public token and name. */
export const projectList = defineCommand({
  name: ['project', 'list'],
  summary: 'List the projects with their ids',
  usage: '',
  description:
    'Lists every project in the database, oldest first: its id (the PROJECT_ID the other ' +
    'commands take), environment, public token and name. Never the secret keys.',
  options: {},
  environment: DATABASE_SETTINGS,
  async run(_values, io) {
    await withRuntime(io, async ({ ctx }) => {
      const projects = await ctx.projects.list();
      if (projects.length === 0) {
        io.stdout('No projects. Create one with `gatehouse project create`.\n');
        return;
      }
      const rows = projects.map((p) => [p.id, p.environment, p.publicToken, p.name]);
      const header = ['project_id', 'environment', 'public_token', 'name'];
      const widths = header.map((title, i) =>
        Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)),
      );
      const line = (cells: string[]) =>
        `${cells.map((cell, i) => (i < cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}\n`;
      io.stdout(line(header) + rows.map(line).join(''));
    });
  },
});
