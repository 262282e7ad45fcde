/** Test helpers for MFA suites: organizations that require MFA, logins that stop at the IST, codes. */
import type { MagicLinkAuthenticateResult, Member, Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { Secret, TOTP } from 'otpauth';
import type { Harness } from './harness.js';

/** Creates an organization (MFA required unless told otherwise) with one member. */
export async function mfaOrganization(
  h: Harness,
  slug: string,
  options: {
    mfa_policy?: 'OPTIONAL' | 'REQUIRED_FOR_ALL';
    mfa_methods?: 'ALL_ALLOWED' | 'RESTRICTED';
    allowed_mfa_methods?: ('sms_otp' | 'totp')[];
  } = {},
): Promise<{ org: Organization; member: Member; email: string }> {
  const created = await h.admin.createOrganization(h.project.project_id, {
    organization_name: slug,
    organization_slug: slug,
  });
  const org = await h.admin.updateOrganization(h.project.project_id, created.organization_id, {
    mfa_policy: options.mfa_policy ?? 'REQUIRED_FOR_ALL',
    ...(options.mfa_methods ? { mfa_methods: options.mfa_methods } : {}),
    ...(options.allowed_mfa_methods ? { allowed_mfa_methods: options.allowed_mfa_methods } : {}),
  });
  const email = `grace@${slug}.test`;
  const member = await h.admin.createMember(h.project.project_id, org.organization_id, {
    email_address: email,
  });
  return { org, member, email };
}

/** Signs in by magic link to any organization; returns the authenticate response's data. */
export async function magicLogin(
  h: Harness,
  email: string,
  organizationId: string,
  token?: string,
): Promise<MagicLinkAuthenticateResult> {
  const sent = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: { email_address: email, organization_id: organizationId },
  });
  if (sent.status !== 200) throw new Error(`send failed: ${sent.text}`);
  const res = await h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: { magic_links_token: await h.lastToken(email), session_duration_minutes: 60 },
    ...(token ? { token } : {}),
  });
  if (res.status !== 200 || !res.ok) throw new Error(`authenticate failed: ${res.text}`);
  return res.data;
}

/** The TOTP code of a base32 secret at a time, computed independently of the server. */
export function totpAt(secret: string, atMs: number): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({ timestamp: atMs });
}

/** The newest text message to a number, read from the dev inbox over HTTP. */
export async function lastSms(h: Harness, to: string): Promise<{ text: string; code: string }> {
  const res = await h.request('/_dev/inbox/messages?limit=200', { authorization: null });
  const messages = res.body as { channel: string; to: string; text: string; subject: string }[];
  const message = messages.find((m) => m.channel === 'sms' && m.to === to);
  if (!message) throw new Error(`No SMS to ${to}`);
  const code = /\b(\d{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`No code in "${message.text}"`);
  return { text: message.text, code };
}

/** How many text messages went to a number. */
export async function smsCount(h: Harness, to: string): Promise<number> {
  const res = await h.request('/_dev/inbox/messages?limit=1000', { authorization: null });
  return (res.body as { channel: string; to: string }[]).filter(
    (m) => m.channel === 'sms' && m.to === to,
  ).length;
}
