/** First-run setup of the demo: a test project, the organization "Acme Corp" and its admin. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Admin } from '@gatehouse/server';

export interface DemoProject {
  project_id: string;
  public_token: string;
  /** The demo backend's secret key; shown once by Gatehouse, so the demo keeps it in its state file. */
  secret: string;
}

export const DEMO_ORG_SLUG = 'acme';
export const DEMO_ORG_NAME = 'Acme Corp';
export const DEMO_ORG_DOMAIN = 'acme.test';
export const DEMO_ADMIN_EMAIL = 'admin@acme.test';

async function readState(stateFile: string): Promise<DemoProject | null> {
  try {
    const parsed = JSON.parse(await readFile(stateFile, 'utf8')) as Partial<DemoProject>;
    if (parsed.project_id && parsed.public_token && parsed.secret) return parsed as DemoProject;
    return null;
  } catch {
    return null;
  }
}

/**
 * Creates the demo project, organization and member on first run and reuses them afterwards.
 * The project's redirect URLs and slug pattern follow `publicUrl`, which may change between runs.
 */
export async function ensureDemoProject(
  admin: Admin,
  stateFile: string,
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

  let project = await readState(stateFile);
  if (project && !(await admin.getProject(project.project_id))) project = null;
  if (!project) {
    const created = await admin.createProject({
      name: 'Gatehouse demo',
      environment: 'test',
      ...settings,
    });
    project = {
      project_id: created.project_id,
      public_token: created.public_token,
      secret: created.secret,
    };
    await mkdir(dirname(stateFile), { recursive: true });
    await writeFile(stateFile, JSON.stringify(project, null, 2), { mode: 0o600 });
  } else {
    await admin.updateProject(project.project_id, settings);
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
