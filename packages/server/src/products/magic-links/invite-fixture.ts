// The set-up the invitation suites share (invite.test.ts, invite-accept.test.ts): a harness whose
// seeded organization has an admin, boss@acme.test, signed in, and the calls both suites make.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll } from 'vitest';
import { startHarness, type CallRequestOptions, type Harness } from '../../test/harness.js';

/** The management API's invite body, the organization left to the fixture. */
export type InviteBody = Omit<
  RequestOf<typeof ENDPOINTS.backendMagicLinksInvite>,
  'organization_id'
> & {
  organization_id?: string;
};

/**
 * Starts the harness before the suite and closes it after; `fixture` holds it and the admin's
 * session token once started.
 *
 * @example
 * const { fixture, invite, accept } = useInviteFixture();
 */
export function useInviteFixture() {
  const fixture = {} as { h: Harness; boss: string };
  beforeAll(async () => {
    const h = await startHarness();
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'boss@acme.test',
      roles: ['admin'],
    });
    fixture.h = h;
    fixture.boss = (await h.login('boss@acme.test')).session_token;
  });
  afterAll(async () => {
    await fixture.h.close();
  });
  return {
    fixture,
    /** The management API's invite, into the seeded organization unless told. */
    invite: (body: InviteBody) =>
      fixture.h.call(ENDPOINTS.backendMagicLinksInvite, {
        body: { organization_id: fixture.h.org.organization_id, ...body },
      }),
    accept: (token: string, options: CallRequestOptions = {}) =>
      fixture.h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: token, session_duration_minutes: 60 },
        ...options,
      }),
    statusOf: async (email: string, organizationId = fixture.h.org.organization_id) =>
      (await fixture.h.admin.getMemberByEmail(fixture.h.project.project_id, organizationId, email))
        ?.status ?? null,
  };
}
