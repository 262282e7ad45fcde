import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ACK } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

async function confirm(emailDomains: string[]) {
  const rendered = renderWidget(
    { products: ['emailMagicLinks'], authFlowType: 'discovery' },
    {
      prepare: (c) => {
        c.setBootstrap({ emailDomains });
        c.answer('magicLinks.email.discovery.send', async () => ACK);
      },
    },
  );
  fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ada@acme.test' } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
  await screen.findByRole('heading', { name: 'Check your email' });
  return rendered;
}

describe('EmailConfirmation', () => {
  it('shows the address and web-mail links searching for the sender domain', async () => {
    await confirm(['mail.gatehouse.test']);
    expect(screen.getByText('An email was sent to ada@acme.test.')).toBeTruthy();
    for (const name of ['Gmail', 'Outlook', 'Yahoo Mail']) {
      const link = screen.getByRole<HTMLAnchorElement>('link', { name });
      expect(link.href).toContain('mail.gatehouse.test');
      expect(link.target).toBe('_blank');
      expect(link.rel).toBe('noopener noreferrer');
    }
  });

  it('links to the inboxes when the sender domain is unknown', async () => {
    await confirm([]);
    expect(screen.getByRole<HTMLAnchorElement>('link', { name: 'Gmail' }).href).toBe(
      'https://mail.google.com/mail/u/0/#inbox',
    );
  });

  it('returns to Main with Try again, focusing its heading', async () => {
    await confirm([]);
    expect(screen.getByText("Didn't get it?", { exact: false })).toBeTruthy();
    const tryAgain = screen.getByRole('button', { name: 'Try again' });
    fireEvent.pointerDown(tryAgain);
    fireEvent.click(tryAgain);
    const heading = await screen.findByRole('heading', { name: 'Sign up or log in' });
    expect(document.activeElement).toBe(heading);
  });
});
