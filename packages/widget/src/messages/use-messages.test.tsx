import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { ACK } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const discovery: WidgetConfig = {
  products: ['emailMagicLinks', 'oauth'],
  authFlowType: 'discovery',
  oauthOptions: { providers: ['google'] },
};

describe('the widget in another locale', () => {
  it('renders the Spanish table once it has loaded, and sends the locale with the link', async () => {
    const { client } = renderWidget(
      { ...discovery, locale: 'es' },
      { prepare: (c) => c.answer('magicLinks.email.discovery.send', async () => ACK) },
    );
    expect(await screen.findByRole('heading', { name: 'Regístrate o inicia sesión' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continuar con Google' })).toBeTruthy();
    fireEvent.input(screen.getByLabelText('Correo electrónico'), {
      target: { value: 'ada@acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar con correo electrónico' }));
    expect(
      await screen.findByRole('heading', { name: 'Revisa tu correo electrónico' }),
    ).toBeTruthy();
    expect(client.callsTo('magicLinks.email.discovery.send')).toEqual([
      { email_address: 'ada@acme.test', locale: 'es' },
    ]);
  });

  it('speaks Spanish in its own validation messages', async () => {
    renderWidget({ ...discovery, locale: 'es-MX' });
    fireEvent.input(await screen.findByLabelText('Correo electrónico'), {
      target: { value: 'ada@acme' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar con correo electrónico' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Dirección de correo electrónico no válida',
    );
  });

  it('replaces one string with a host override and leaves the rest', async () => {
    renderWidget({ ...discovery, messages: { 'main.heading.discovery': 'Welcome back' } });
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with email' })).toBeTruthy();
  });

  it('falls back to English for a key the host’s own locale lacks', async () => {
    renderWidget({
      ...discovery,
      locale: 'de',
      locales: { de: { 'main.heading.discovery': 'Registrieren oder anmelden' } },
    });
    expect(await screen.findByRole('heading', { name: 'Registrieren oder anmelden' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with email' })).toBeTruthy();
  });

  it('speaks English, with a warning, for a locale it does not know, and sends en', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client } = renderWidget(
      { ...discovery, locale: 'tlh' },
      { prepare: (c) => c.answer('magicLinks.email.discovery.send', async () => ACK) },
    );
    expect(await screen.findByRole('heading', { name: 'Sign up or log in' })).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"tlh"'));
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ada@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with email' }));
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(client.callsTo('magicLinks.email.discovery.send')).toEqual([
      { email_address: 'ada@acme.test', locale: 'en' },
    ]);
  });
});
