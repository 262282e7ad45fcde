/** The seeded member Ada with a password, and her password sign-in, as many suites use them. */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Harness, RequestOptions } from './harness.js';

/** A password that passes the strength policy. */
export const ADA_PASSWORD = 'Quartz-Lantern-Orbit-42';

/** Gives the harness's seeded member, ada@acme.test, {@link ADA_PASSWORD}. */
export async function giveAdaPassword(h: Harness): Promise<void> {
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, {
    password: ADA_PASSWORD,
  });
}

/**
 * Ada's password sign-in to her organization (a one-hour session), with the request's other
 * options (another instance's `baseUrl`, `headers`).
 *
 * @example
 * expectSession(await adaPasswordSignIn(h, { headers: { 'user-agent': 'Ada/1' } }));
 */
export function adaPasswordSignIn(h: Harness, options: Omit<RequestOptions, 'body'> = {}) {
  return h.call(ENDPOINTS.passwordsAuthenticate, {
    ...options,
    body: {
      organization_id: h.org.organization_id,
      email_address: 'ada@acme.test',
      password: ADA_PASSWORD,
      session_duration_minutes: 60,
    },
  });
}
