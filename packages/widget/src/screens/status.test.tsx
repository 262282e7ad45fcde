import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { ACK, apiError, fullSession, organization } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

const organizationFlow: WidgetConfig = {
  products: ['emailMagicLinks'],
  authFlowType: 'organization',
};
const discoveryFlow: WidgetConfig = { products: ['emailMagicLinks'], authFlowType: 'discovery' };
const magicLinkUrl =
  'http://localhost:3000/acme/login?stytch_token_type=multi_tenant_magic_links&token=tok';

describe('loading screens', () => {
  it('shows a spinner alone while the organization loads', () => {
    renderWidget(organizationFlow, {
      prepare: (c) => c.answer('organization.getBySlug', () => new Promise(() => undefined)),
    });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it("shows 'Logging in...' while a link is redeemed", () => {
    renderWidget(discoveryFlow, {
      pageUrl: magicLinkUrl,
      prepare: (c) => c.answer('magicLinks.authenticate', () => new Promise(() => undefined)),
    });
    expect(screen.getByText('Logging in...')).toBeTruthy();
  });
});

describe('focus', () => {
  it('leaves the page focus alone when screens change on their own while loading', async () => {
    renderWidget(organizationFlow, {
      prepare: (c) =>
        c.answer('organization.getBySlug', async () => ({ ...ACK, organization: organization() })),
    });
    await screen.findByRole('heading', { name: 'Continue to Acme' });
    expect(document.activeElement).toBe(document.body);
  });
});

describe('LoggedIn', () => {
  it('greets after a magic link and reports success once', async () => {
    const result = { ...fullSession(), method_id: 'member-email-test-1' };
    const { successes, url, events } = renderWidget(discoveryFlow, {
      pageUrl: magicLinkUrl,
      prepare: (c) => c.answer('magicLinks.authenticate', async () => result),
    });
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(screen.getByText('You have successfully logged in.')).toBeTruthy();
    expect(successes).toEqual([result]);
    expect(url.current).toBe('http://localhost:3000/acme/login');
    expect(events).toEqual([{ type: 'MAGIC_LINK_AUTHENTICATE', data: result }]);
  });

  it('is the first screen when a session exists, and the URL token is left alone', async () => {
    const session = fullSession();
    const { client } = renderWidget(organizationFlow, {
      pageUrl: magicLinkUrl,
      prepare: (c) =>
        c.setSession({
          session: session.member_session,
          member: session.member,
          organization: session.organization,
        }),
    });
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(client.calls).toEqual([]);
  });
});

describe('Error', () => {
  it('shows the e-mail magic link message when a link fails', async () => {
    renderWidget(discoveryFlow, {
      pageUrl: magicLinkUrl,
      prepare: (c) =>
        c.answer('magicLinks.authenticate', () =>
          Promise.reject(apiError('magic_link_not_found', 'Not found', 404)),
        ),
    });
    expect(
      await screen.findByRole('heading', { name: 'Looks like there was an error!' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Something went wrong. Your login link may have expired, been revoked, or been used more than once. Request a new login link to try again, or contact your admin for help.',
      ),
    ).toBeTruthy();
    expect(document.querySelector('svg.gh-illustration')).toBeTruthy();
  });

  it('shows the organization message when the slug finds nothing', async () => {
    renderWidget(organizationFlow, {
      prepare: (c) =>
        c.answer('organization.getBySlug', async () => ({ ...ACK, organization: null })),
    });
    expect(
      await screen.findByText(
        'The organization you are looking for could not be found. If you think this is a mistake, contact your admin.',
      ),
    ).toBeTruthy();
  });
});
