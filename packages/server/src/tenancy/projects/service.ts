/** Projects: creation, settings, secrets, and the cached lookup by public token. */
import type { Environment } from '@gatehouse/protocol';
import type { Kysely } from 'kysely';
import { hashToken, newId, newToken, safeEqual } from '../../crypto/random.js';
import type { Database, ProjectsTable } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { AuthorizedOriginIndex } from './origin-index.js';
import {
  allProjectRows,
  insertProject,
  projectRow,
  secretHashesOf,
  updateProjectRow,
} from './store.js';

/** A project's password strength policy. */
export interface PasswordPolicy {
  strength_policy: 'none' | 'zxcvbn' | 'luds';
  /** LUDS: how many of the four character classes are required (1–4). */
  luds_complexity: number;
  /** LUDS: the minimum length, in characters. */
  luds_minimum_count: number;
}

/** Redirect URL allow-lists by kind; the first of each is the default. */
export interface RedirectUrls {
  login?: string[];
  signup?: string[];
  discovery?: string[];
  reset_password?: string[];
}
export type RedirectKind = keyof RedirectUrls;

/** Which flows must carry a PKCE challenge. */
export interface PkceRequired {
  email_magic_links: boolean;
  password_resets: boolean;
  oauth: boolean;
  sso: boolean;
}

/** A project as the services use it. */
export interface Project {
  id: string;
  name: string;
  environment: Environment;
  publicToken: string;
  createOrganizationEnabled: boolean;
  authorizedOrigins: string[];
  redirectUrls: RedirectUrls;
  slugPattern: string | null;
  pkceRequired: PkceRequired;
  passwordPolicy: PasswordPolicy;
  /** The absolute lifetime of the project's sessions in minutes; null for the server's. */
  sessionMaxLifetimeMinutes: number | null;
  /** Whether the widget shows its 'Powered by Gatehouse' line. */
  displayWatermark: boolean;
}

/** A password policy setting: LUDS numbers left out keep their value (default 3 classes, 8 characters). */
export interface PasswordPolicyInput {
  strength_policy: PasswordPolicy['strength_policy'];
  luds_complexity?: number;
  luds_minimum_count?: number;
}

/** Input of {@link ProjectService.create}. */
export interface CreateProjectInput {
  name: string;
  environment?: Environment;
  createOrganizationEnabled?: boolean;
  authorizedOrigins?: string[];
  redirectUrls?: RedirectUrls;
  slugPattern?: string | null;
  pkceRequired?: Partial<PkceRequired>;
  passwordPolicy?: PasswordPolicyInput;
  /** Null (the default) leaves it to the server's `sessionMaxLifetimeMinutes`. */
  sessionMaxLifetimeMinutes?: number | null;
  displayWatermark?: boolean;
}

/** Input of {@link ProjectService.update}. */
export type UpdateProjectInput = Omit<CreateProjectInput, 'name' | 'environment'>;

/** What creating a project reveals once: the secret is never readable again. */
export interface CreatedProject {
  project_id: string;
  public_token: string;
  secret: string;
  secret_id: string;
}

const NO_PKCE: PkceRequired = {
  email_magic_links: false,
  password_resets: false,
  oauth: false,
  sso: false,
};
/** How long a project lookup by public token is trusted before it is read again. */
const CACHE_MS = 5_000;

function toProject(row: ProjectsTable): Project {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    publicToken: row.public_token,
    createOrganizationEnabled: row.create_organization_enabled === 1,
    authorizedOrigins: JSON.parse(row.authorized_origins) as string[],
    redirectUrls: JSON.parse(row.redirect_urls) as RedirectUrls,
    slugPattern: row.slug_pattern,
    pkceRequired: { ...NO_PKCE, ...(JSON.parse(row.pkce_required) as Partial<PkceRequired>) },
    passwordPolicy: {
      strength_policy: row.password_policy,
      luds_complexity: row.luds_complexity,
      luds_minimum_count: row.luds_minimum_count,
    },
    sessionMaxLifetimeMinutes: row.session_max_lifetime_minutes ?? null,
    displayWatermark: row.display_watermark === 1,
  };
}

const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  strength_policy: 'zxcvbn',
  luds_complexity: 3,
  luds_minimum_count: 8,
};

/** Applies a policy setting over the current policy, refusing values no password could meet. */
function passwordPolicyColumns(
  input: PasswordPolicyInput,
  current: PasswordPolicy,
): Pick<ProjectsTable, 'password_policy' | 'luds_complexity' | 'luds_minimum_count'> {
  if (!['none', 'zxcvbn', 'luds'].includes(input.strength_policy)) {
    throw new TypeError(`Unknown password strength policy: ${String(input.strength_policy)}`);
  }
  const complexity = input.luds_complexity ?? current.luds_complexity;
  const minimum = input.luds_minimum_count ?? current.luds_minimum_count;
  if (!Number.isInteger(complexity) || complexity < 1 || complexity > 4) {
    throw new TypeError('luds_complexity must be an integer from 1 to 4');
  }
  if (!Number.isInteger(minimum) || minimum < 1 || minimum > 256) {
    throw new TypeError('luds_minimum_count must be an integer from 1 to 256');
  }
  return {
    password_policy: input.strength_policy,
    luds_complexity: complexity,
    luds_minimum_count: minimum,
  };
}

/** Normalizes an origin list so comparisons are exact (`https://a.example:443` → `https://a.example`). */
function normalizeOrigins(origins: string[]): string[] {
  return origins.map((o) => {
    try {
      return new URL(o).origin;
    } catch {
      throw new TypeError(`Not an origin: ${o}`);
    }
  });
}

function validateRedirectUrls(urls: RedirectUrls): RedirectUrls {
  for (const list of Object.values(urls) as (string[] | undefined)[]) {
    for (const url of list ?? []) {
      if (!URL.canParse(url)) throw new TypeError(`Not an absolute URL: ${url}`);
    }
  }
  return urls;
}

/** Reads and writes projects; lookups by public token are cached briefly for the hot path. */
export class ProjectService {
  readonly #cache = new Map<string, { project: Project | null; at: number }>();
  readonly #origins: AuthorizedOriginIndex;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {
    this.#origins = new AuthorizedOriginIndex(db, now);
  }

  /** Creates a project with one secret key. */
  async create(input: CreateProjectInput): Promise<CreatedProject> {
    const env = input.environment ?? 'test';
    const at = new Date(this.now()).toISOString();
    const projectId = newId('project', env);
    const publicToken = newId('public-token', env);
    const secretId = newId('secret', env);
    const secret = `secret-${env}-${newToken()}`;
    await insertProject(
      this.db,
      {
        id: projectId,
        name: input.name,
        environment: env,
        public_token: publicToken,
        create_organization_enabled: input.createOrganizationEnabled ? 1 : 0,
        authorized_origins: JSON.stringify(normalizeOrigins(input.authorizedOrigins ?? [])),
        redirect_urls: JSON.stringify(validateRedirectUrls(input.redirectUrls ?? {})),
        slug_pattern: input.slugPattern ?? null,
        pkce_required: JSON.stringify({ ...NO_PKCE, ...input.pkceRequired }),
        ...passwordPolicyColumns(
          input.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
          DEFAULT_PASSWORD_POLICY,
        ),
        // Written only when set, so a project can still be made on an older schema (upgrades).
        ...(input.sessionMaxLifetimeMinutes != null && {
          session_max_lifetime_minutes: input.sessionMaxLifetimeMinutes,
        }),
        created_at: at,
        updated_at: at,
      },
      { id: secretId, project_id: projectId, secret_hash: hashToken(secret), created_at: at },
    );
    this.#origins.invalidate();
    return { project_id: projectId, public_token: publicToken, secret, secret_id: secretId };
  }

  /**
   * Changes a project's settings; fields left out keep their value. Returns the project as
   * stored, or null when there is none. Throws a `TypeError` for a value no check would pass,
   * before anything is written. The row is locked first (its `updated_at` written) so that two
   * concurrent changes of the PKCE flags or the password policy cannot lose one another's fields.
   */
  async update(projectId: string, patch: UpdateProjectInput): Promise<Project | null> {
    const at = new Date(this.now()).toISOString();
    const updated = await transaction(this.db, async (trx) => {
      await updateProjectRow(trx, projectId, { updated_at: at });
      const row = await projectRow(trx, 'id', projectId);
      if (!row) return null;
      const current = toProject(row);
      const values: Partial<ProjectsTable> = {};
      if (patch.authorizedOrigins)
        values.authorized_origins = JSON.stringify(normalizeOrigins(patch.authorizedOrigins));
      if (patch.redirectUrls)
        values.redirect_urls = JSON.stringify(validateRedirectUrls(patch.redirectUrls));
      if (patch.createOrganizationEnabled !== undefined) {
        values.create_organization_enabled = patch.createOrganizationEnabled ? 1 : 0;
      }
      if (patch.slugPattern !== undefined) values.slug_pattern = patch.slugPattern;
      if (patch.pkceRequired)
        values.pkce_required = JSON.stringify({ ...current.pkceRequired, ...patch.pkceRequired });
      if (patch.passwordPolicy)
        Object.assign(values, passwordPolicyColumns(patch.passwordPolicy, current.passwordPolicy));
      if (patch.sessionMaxLifetimeMinutes !== undefined)
        values.session_max_lifetime_minutes = patch.sessionMaxLifetimeMinutes;
      if (patch.displayWatermark !== undefined)
        values.display_watermark = patch.displayWatermark ? 1 : 0;
      if (Object.keys(values).length > 0) await updateProjectRow(trx, projectId, values);
      return toProject({ ...row, ...values });
    });
    if (updated) this.#cache.delete(updated.publicToken);
    this.#origins.invalidate();
    return updated;
  }

  /**
   * Whether some project trusts a page at `origin` (listed, or loopback with a test project):
   * what a CORS preflight, which names no project, is answered by. From an in-memory snapshot of
   * every project's origins, dropped whenever this service creates or changes a project.
   */
  authorizesAnywhere(origin: string): Promise<boolean> {
    return this.#origins.allows(origin);
  }

  /** Every project, oldest first. */
  async list(): Promise<Project[]> {
    return (await allProjectRows(this.db)).map(toProject);
  }

  /** A project by id, or null. */
  async byId(projectId: string): Promise<Project | null> {
    const row = await projectRow(this.db, 'id', projectId);
    return row ? toProject(row) : null;
  }

  /** A project by public token, or null; cached for a few seconds (misses too). */
  async byPublicToken(publicToken: string): Promise<Project | null> {
    const hit = this.cachedByPublicToken(publicToken);
    if (hit !== undefined) return hit;
    const row = await projectRow(this.db, 'public_token', publicToken);
    const project = row ? toProject(row) : null;
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(publicToken, { project, at: this.now() });
    return project;
  }

  /**
   * What {@link byPublicToken} would answer from its cache, without waiting: the project, null
   * for a token known to be unknown, or undefined when the cache cannot tell (then ask
   * `byPublicToken`). The CORS step of every SDK call answers from it without a promise.
   */
  cachedByPublicToken(publicToken: string): Project | null | undefined {
    const hit = this.#cache.get(publicToken);
    return hit && this.now() - hit.at < CACHE_MS ? hit.project : undefined;
  }

  /** The project whose secret key this is, or null (constant-time over the stored hashes). */
  async verifySecret(projectId: string, secret: string): Promise<Project | null> {
    const hashes = await secretHashesOf(this.db, projectId);
    const hash = hashToken(secret);
    let ok = false;
    for (const stored of hashes) ok = safeEqual(hash, stored) || ok;
    return ok ? this.byId(projectId) : null;
  }
}
