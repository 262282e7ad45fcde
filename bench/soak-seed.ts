/**
 * The soak's members, made by `session-server.ts` when `SOAK_MEMBERS` is set: password members
 * and magic-link members of the bench organization (`SOAK_MEMBERS` each, every one its own
 * address), and `SOAK_MFA_MEMBERS` members of an organization that requires MFA, each enrolled in
 * TOTP through the real endpoints (a login link, `POST /b2b/totp`, a first code). Every password
 * member gets the same argon2id hash, made once with the server's parameters and imported, so
 * seeding hashes one password instead of hundreds.
 */
import { hash, type Algorithm } from '@node-rs/argon2';
import { PASSWORD_HASH_PARAMS, type Admin } from '@gatehouse/server';
import { Secret, TOTP } from 'otpauth';

/** A member the load signs in as. */
export interface SoakMember {
  memberId: string;
  email: string;
}

/** A member enrolled in TOTP: its secret (base32) and the last 30-s step whose code it used. */
export interface SoakMfaMember extends SoakMember {
  secret: string;
  step: number;
}

/** What the soak needs beyond the bench target. */
export interface SoakMembers {
  /** Members of the bench organization with the target's password. */
  password: SoakMember[];
  /** Members of the bench organization who sign in by login link. */
  links: SoakMember[];
  /** The organization that requires MFA, and its members (the same password) enrolled in TOTP. */
  mfaOrganizationId: string;
  mfa: SoakMfaMember[];
}

/** The code of a base32 TOTP secret at a time (RFC 6238, SHA-1, six digits, 30-s steps). */
export function totpCode(secret: string, atMs: number): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: atMs });
}

/** The 30-s TOTP step of a time. */
export const totpStep = (atMs: number) => Math.floor(atMs / 30_000);

/** One SDK call of the seeding, with the project's public token; throws unless it answers 200. */
type Post = (path: string, body: unknown) => Promise<Record<string, unknown>>;

/** Seeds the soak's members; `post` calls the running server's SDK API. */
export async function seedSoak(
  admin: Admin,
  projectId: string,
  organizationId: string,
  password: string,
  post: Post,
): Promise<SoakMembers> {
  const count = Number(process.env.SOAK_MEMBERS ?? 500);
  const mfaCount = Number(process.env.SOAK_MFA_MEMBERS ?? 1000);
  const { algorithm: _argon2id, ...params } = PASSWORD_HASH_PARAMS;
  const passwordHash = await hash(password, { ...params, algorithm: 2 as Algorithm });
  const mfaOrganization = await admin.createOrganization(projectId, {
    organization_name: 'Bench MFA',
    organization_slug: 'bench-mfa',
    mfa_policy: 'REQUIRED_FOR_ALL',
  });

  const make = async (org: string, email: string, withPassword: boolean) => {
    const member = await admin.createMember(projectId, org, { email_address: email });
    if (withPassword)
      await admin.setMemberPassword(projectId, member.member_id, { hash: passwordHash });
    return { memberId: member.member_id, email };
  };
  const inBatches = async <T>(n: number, each: (i: number) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (let i = 0; i < n; i += 50) {
      const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) => each(i + j));
      out.push(...(await Promise.all(batch)));
    }
    return out;
  };

  const passwordMembers = await inBatches(count, (i) =>
    make(organizationId, `soak-password-${i}@bench.test`, true),
  );
  const links = await inBatches(count, (i) =>
    make(organizationId, `soak-link-${i}@bench.test`, false),
  );
  const mfa = await inBatches(mfaCount, async (i) => {
    const member = await make(
      mfaOrganization.organization_id,
      `soak-mfa-${i}@bench-mfa.test`,
      true,
    );
    const ids = { organization_id: mfaOrganization.organization_id, member_id: member.memberId };
    await post('/b2b/magic_links/email/login_or_signup', {
      email_address: member.email,
      organization_id: ids.organization_id,
    });
    const message = (await admin.listOutbox({ limit: 100 })).find((m) => m.to === member.email);
    const pending = await post('/b2b/magic_links/authenticate', {
      magic_links_token: new URL(message!.links[0]!).searchParams.get('token'),
    });
    const ist = pending.intermediate_session_token as string;
    const created = await post('/b2b/totp', { ...ids, intermediate_session_token: ist });
    const secret = created.secret as string;
    const now = Date.now();
    await post('/b2b/totp/authenticate', {
      ...ids,
      intermediate_session_token: ist,
      code: totpCode(secret, now),
    });
    return { ...member, secret, step: totpStep(now) };
  });
  return {
    password: passwordMembers,
    links,
    mfaOrganizationId: mfaOrganization.organization_id,
    mfa,
  };
}
