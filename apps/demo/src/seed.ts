/** First-run setup of the demo on a database: a test project, the organization "Acme Corp" and its admin. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Admin } from '@gatehouse/server';

export interface DemoProject {
  project_id: string;
  public_token: string;
  /** The demo backend's secret key; shown once by Gatehouse, so the demo keeps it in its state file. */
  secret: string;
}

export const DEMO_PROJECT_NAME = 'Gatehouse demo';
export const DEMO_ORG_SLUG = 'acme';
export const DEMO_ORG_NAME = 'Acme Corp';
export const DEMO_ORG_DOMAIN = 'acme.test';
export const DEMO_ADMIN_EMAIL = 'admin@acme.test';

/**
 * The state file: the demo project of each database the demo ran on, by {@link databaseKey}. A
 * file from before it was kept per database holds one project at its top level; that project is
 * used for whichever database it is found in.
 */
interface DemoState {
  databases?: Record<string, DemoProject>;
  project_id?: string;
  public_token?: string;
  secret?: string;
}

function isDemoProject(value: unknown): value is DemoProject {
  const p = value as Partial<DemoProject> | null;
  return (
    typeof p?.project_id === 'string' &&
    typeof p.public_token === 'string' &&
    typeof p.secret === 'string'
  );
}

async function readState(stateFile: string): Promise<DemoState> {
  try {
    const parsed = JSON.parse(await readFile(stateFile, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * The name of a database in the state file: a SQLite file by its absolute path, a PostgreSQL
 * database by host, port and name (never its password).
 *
 * @example
 * databaseKey('sqlite:./data/gatehouse.db'); // 'sqlite:/home/me/gatehouse/data/gatehouse.db'
 */
export function databaseKey(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path === ':memory:' ? databaseUrl : `sqlite:${resolve(path)}`;
  }
  try {
    const url = new URL(databaseUrl);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return databaseUrl;
  }
}

/**
 * Creates the demo project, organization and member on the first run on a database and reuses
 * them afterwards. The state file keeps the project (and the secret key the demo's backend uses)
 * per database, so running on another `DATABASE_URL` never forgets the first one's. The
 * project's redirect URLs and slug pattern follow `publicUrl`, which may change between runs.
 */
export async function ensureDemoProject(
  admin: Admin,
  stateFile: string,
  database: string,
  publicUrl: string,
): Promise<DemoProject> {
  const appUrl = `${publicUrl}/_app`;
  // Password resets land on their own page; people without a password reach it by a login link.
  const resetUrl = `${appUrl}/reset`;
  const settings = {
    createOrganizationEnabled: true,
    slugPattern: `${appUrl}/org/{{slug}}`,
    redirectUrls: {
      login: [appUrl, resetUrl],
      signup: [appUrl, resetUrl],
      discovery: [appUrl],
      reset_password: [resetUrl],
    },
  };

  const state = await readState(stateFile);
  const databases = { ...state.databases };
  let project: DemoProject | null = null;
  for (const candidate of [databases[database], state]) {
    if (isDemoProject(candidate) && (await admin.getProject(candidate.project_id))) {
      project = {
        project_id: candidate.project_id,
        public_token: candidate.public_token,
        secret: candidate.secret,
      };
      break;
    }
  }
  if (!project) {
    const created = await admin.createProject({
      name: DEMO_PROJECT_NAME,
      environment: 'test',
      ...settings,
    });
    project = {
      project_id: created.project_id,
      public_token: created.public_token,
      secret: created.secret,
    };
  } else {
    await admin.updateProject(project.project_id, settings);
  }
  if (JSON.stringify(databases[database]) !== JSON.stringify(project)) {
    databases[database] = project;
    await mkdir(dirname(stateFile), { recursive: true });
    await writeFile(stateFile, JSON.stringify({ ...state, databases }, null, 2), { mode: 0o600 });
  }

  const organization =
    (await admin.getOrganizationBySlug(project.project_id, DEMO_ORG_SLUG)) ??
    (await admin.createOrganization(project.project_id, {
      organization_name: DEMO_ORG_NAME,
      organization_slug: DEMO_ORG_SLUG,
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: [DEMO_ORG_DOMAIN],
    }));
  const member = await admin.getMemberByEmail(
    project.project_id,
    organization.organization_id,
    DEMO_ADMIN_EMAIL,
  );
  if (!member) {
    await admin.createMember(project.project_id, organization.organization_id, {
      email_address: DEMO_ADMIN_EMAIL,
      name: 'Acme Admin',
      roles: ['admin'],
    });
  }
  return project;
}
