import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';

const env = useBrowserAndDemo();

test('a Spanish page: the widget fetches its table, speaks Spanish, and the e-mail is Spanish', async () => {
  const page = await env.browser.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const seen = await inboxIds(env.demo.url);
  await page.goto(`${env.demo.url}/_app?lang=es`);
  await page.getByRole('heading', { name: 'Regístrate o inicia sesión' }).waitFor();
  expect(scripts.some((path) => /\/es-[\w-]+\.js$/.test(path))).toBe(true);

  await page.getByLabel('Correo electrónico').fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continuar con correo electrónico' }).click();
  await page.getByRole('heading', { name: 'Revisa tu correo electrónico' }).waitFor();

  const { id } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  const inbox = (await (await fetch(`${env.demo.url}/_dev/inbox/messages`)).json()) as {
    id: string;
    subject: string;
    text: string;
  }[];
  const mail = inbox.find((m) => m.id === id);
  expect(mail?.subject).toBe('Tu enlace de inicio de sesión');
  expect(mail?.text).toContain('Abre este enlace');
  await page.close();
});

test('an English page loads no other language', async () => {
  const page = await env.browser.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => /\/es-[\w-]+\.js$/.test(path))).toEqual([]);
  await page.close();
});

test('the link in a Spanish e-mail opens a Spanish page', async () => {
  const page = await env.browser.newPage();
  const seen = await inboxIds(env.demo.url);
  await page.goto(`${env.demo.url}/_app?lang=es`);
  await page.getByLabel('Correo electrónico').fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continuar con correo electrónico' }).click();
  await page.getByRole('heading', { name: 'Revisa tu correo electrónico' }).waitFor();

  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);
  expect(new URL(link).searchParams.get('locale')).toBe('es');
  await page.goto(link);
  await page.getByRole('heading', { name: /Selecciona una organización/ }).waitFor();
  await page.close();
});
