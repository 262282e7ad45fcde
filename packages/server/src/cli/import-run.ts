/**
 * The work of `gatehouse import`: reads the source a page of organizations at a time (their
 * members and connections fetched a few organizations ahead), writes each organization whole
 * through the admin interface, checkpoints it, and prints a line for it; then the hashes file.
 */
import type { Member, OidcConnection, Organization, SamlConnection } from '@gatehouse/protocol';
import { AdminError, type Admin } from '../products/management/admin.js';
import type { ImportOutcome } from '../products/import/admin.js';
import type { HashFile } from './import-hashes.js';
import { Report, Tally } from './import-report.js';
import { SourceError, type Source } from './import-source.js';
import { saveState, type ImportState } from './import-state.js';

/** How one run goes. */
export interface ImportPlan {
  admin: Admin;
  projectId: string;
  source: Source;
  pageSize: number;
  /** Organizations read ahead at once. */
  concurrency: number;
  hashes: HashFile | null;
  state: ImportState;
  statePath: string;
  print(line: string): void;
}

/** What the source holds for one organization; null parts the source does not offer. */
interface Fetched {
  members: Member[] | null;
  connections: {
    saml: SamlConnection[];
    oidc: OidcConnection[];
    other: { kind: string; id: string }[];
  } | null;
}

/** Runs `work` on at most `limit` items at once. */
function pool(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The value of `read`, or null when the source does not offer that call. */
async function offered<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof SourceError && error.notOffered) return null;
    throw error;
  }
}

/** An admin write whose refusal (an {@link AdminError}) skips the object instead of the run. */
async function write(work: () => Promise<ImportOutcome>): Promise<ImportOutcome> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AdminError) {
      return { outcome: 'skipped', reason: `${error.errorType}: ${error.message}` };
    }
    throw error;
  }
}

/**
 * Imports the source project into the target and returns the report; throws (with the
 * checkpoint saved) when the source stops answering.
 *
 * @example
 * const report = await runImport(plan);
 * io.stdout(report.summary());
 */
export async function runImport(plan: ImportPlan): Promise<Report> {
  const report = new Report();
  const { state } = plan;
  await importPolicy(plan, report);
  const done = new Set(state.organizationsDone);
  const limited = pool(plan.concurrency);
  const offers = { members: true, connections: true };
  const fetchOne = async (org: Organization): Promise<Fetched> => {
    const id = org.organization_id;
    let members: Member[] | null = null;
    if (offers.members) {
      members = await offered(async () => {
        const all: Member[] = [];
        let cursor: string | null = null;
        do {
          const page = await plan.source.members(id, cursor, plan.pageSize);
          all.push(...page.items);
          cursor = page.nextCursor;
        } while (cursor !== null);
        return all;
      });
    }
    const connections = offers.connections
      ? await offered(() => plan.source.ssoConnections(id))
      : null;
    if (members === null) offers.members = false;
    if (connections === null) offers.connections = false;
    return { members, connections };
  };
  let cursor: string | null = null;
  do {
    const page = await offered(() => plan.source.organizations(cursor, plan.pageSize));
    if (!page) {
      report.notOffered.add('organizations');
      break;
    }
    const todo = page.items.filter((org) => !done.has(org.organization_id));
    report.tallies.organizations.resumed += page.items.length - todo.length;
    const fetched = todo.map((org) => limited(() => fetchOne(org)));
    // Awaited in order below; a failure stops the run at its organization, not as an orphan.
    for (const f of fetched) f.catch(() => undefined);
    for (const [i, org] of todo.entries()) {
      const data = await fetched[i];
      if (!data) continue;
      await importOrganization(plan, report, org, data);
      state.organizationsDone.push(org.organization_id);
      done.add(org.organization_id);
      await saveState(plan.statePath, state);
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  if (!offers.members) report.notOffered.add('members');
  if (!offers.connections) report.notOffered.add('connections');
  if (plan.hashes) await importHashes(plan, report, plan.hashes);
  state.complete = true;
  await saveState(plan.statePath, state);
  return report;
}

/** The source's roles and resources, made the target project's (first: members need them). */
async function importPolicy(plan: ImportPlan, report: Report): Promise<void> {
  if (plan.state.policyDone) {
    report.tallies.policy.resumed++;
    return;
  }
  const policy = await offered(() => plan.source.rbacPolicy());
  if (!policy) {
    report.notOffered.add('policy');
    return;
  }
  const result = await write(() => plan.admin.importRbacPolicy(plan.projectId, policy));
  report.record('policy', 'RBAC policy', result);
  const builtIn = new Set(['member', 'admin', 'stytch_member', 'stytch_admin']);
  const custom = policy.roles.filter((r) => !builtIn.has(r.role_id));
  const leftOut = result.outcome === 'skipped' ? 0 : (result.leftOut?.length ?? 0);
  const left = leftOut > 0 ? `; ${leftOut} permissions left out, see the summary` : '';
  plan.print(`RBAC policy: ${result.outcome} (${custom.length} custom roles${left})\n`);
  plan.state.policyDone = true;
  await saveState(plan.statePath, plan.state);
}

/** One organization, its connections and its members, and its progress line. */
async function importOrganization(
  plan: ImportPlan,
  report: Report,
  org: Organization,
  data: Fetched,
): Promise<void> {
  const { admin, projectId } = plan;
  const label = `organization ${org.organization_slug} (${org.organization_id})`;
  const result = await write(() => admin.importOrganization(projectId, org));
  report.record('organizations', label, result);
  const members = new Tally();
  const connections = new Tally();
  const all = [...(data.connections?.saml ?? []), ...(data.connections?.oidc ?? [])];
  if (result.outcome === 'skipped') {
    // Nothing of it can be written without it: one line says so rather than one per member.
    members.skipped = data.members?.length ?? 0;
    connections.skipped = all.length;
    report.skipped.push(`${label}: its ${members.skipped} members and ${all.length} connections`);
  } else {
    for (const connection of all) {
      const written = await write(() => admin.importSsoConnection(projectId, connection));
      report.record('connections', `connection ${connection.connection_id}`, written, connections);
    }
    for (const other of data.connections?.other ?? []) {
      connections.skipped++;
      report.skipped.push(`connection ${other.id}: ${other.kind} connections are not supported`);
    }
    if (data.connections) {
      const sso = await write(() => admin.importOrganizationSso(projectId, org));
      if (sso.outcome === 'skipped') report.notes.push(`${label}: SSO settings: ${sso.reason}`);
    }
    for (const member of data.members ?? []) {
      const what = `member ${member.member_id} (${member.email_address})`;
      const written = await write(() => admin.importMember(projectId, member));
      report.record('members', what, written, members);
    }
  }
  report.tallies.members.merge(members);
  report.tallies.connections.merge(connections);
  const memberPart = data.members ? `members ${members.toString()}` : 'members not offered';
  const connectionPart = data.connections
    ? `SSO connections ${connections.toString()}`
    : 'SSO connections not offered';
  plan.print(`${label}: ${result.outcome}; ${memberPart}; ${connectionPart}\n`);
}

/** The hashes file, line by line, as `passwords/migrate` takes it; members with a password keep it. */
async function importHashes(plan: ImportPlan, report: Report, file: HashFile): Promise<void> {
  const { admin, projectId } = plan;
  for (const { line, reason } of file.refused) {
    report.record('passwords', `hashes line ${line}`, { outcome: 'skipped', reason });
  }
  for (const { line, organization, input } of file.lines) {
    const what = `hashes line ${line} (${input.email_address})`;
    const result = await write(async () => {
      const orgId = organization.startsWith('organization-')
        ? organization
        : (await admin.getOrganizationBySlug(projectId, organization))?.organization_id;
      if (!orgId) return { outcome: 'skipped', reason: `no organization ${organization} here` };
      const member = await admin.getMemberByEmail(projectId, orgId, input.email_address);
      if (member?.member_password_id) {
        return { outcome: 'skipped', reason: 'the member already has a password here' };
      }
      const migrated = await admin.migratePassword(projectId, { ...input, organization_id: orgId });
      return migrated.member_created
        ? {
            outcome: 'created',
            note: `no member ${input.email_address} came from the source: created`,
          }
        : { outcome: 'created' };
    });
    report.record('passwords', what, result);
  }
  plan.print(`password hashes: ${report.tallies.passwords.toString()}\n`);
}
