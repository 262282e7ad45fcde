// The server's e-mails and texts in the caller's language: a real SMTP receiver gets a Spanish
// magic-link e-mail; the dev outbox shows the others; unknown languages get English.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../test/harness.js';
import { lastSms, magicLogin, mfaOrganization } from '../test/mfa.js';
import { startSmtpReceiver, type SmtpReceiver } from '../test/smtp.js';
import { LANGUAGES, languageOf } from './copy.js';
import type { OutboxMessage } from './outbox.js';
import {
  inviteEmail,
  magicLinkEmail,
  passwordPausedEmail,
  passwordResetEmail,
} from './templates.js';

/** The readable text of a raw MIME message: encoded-word headers and QP or base64 bodies decoded. */
function decodeMime(raw: string): string {
  const words = raw
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replaceAll('_', ' ')),
    );
  const parts = words.split(/\r?\n--/).map((part) => {
    const [headers = '', ...body] = part.split(/\r?\n\r?\n/);
    const text = body.join('\n\n');
    if (/Content-Transfer-Encoding: base64/i.test(headers)) {
      return `${headers}\n\n${Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8')}`;
    }
    if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
      return `${headers}\n\n${decodeQuotedPrintable(text.replace(/=\r?\n/g, ''))}`;
    }
    return part;
  });
  return parts.join('\n--');
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/(=[0-9A-F]{2})+/gi, (run) =>
    Buffer.from(
      run
        .split('=')
        .slice(1)
        .map((hex) => parseInt(hex, 16)),
    ).toString('utf8'),
  );
}

describe('languageOf', () => {
  it('writes in the language of a tag the server has copy for, and English otherwise', () => {
    expect(
      ['es', 'es-MX', 'ES', 'en-GB', 'pt-BR', 'de', '', null, undefined].map(languageOf),
    ).toEqual(['es', 'es', 'es', 'en', 'en', 'en', 'en', 'en', 'en']);
  });
});

describe('the text part of every e-mail with a link', () => {
  const link = 'https://app.example/authenticate?token=abc';
  const mails = LANGUAGES.flatMap((language) => [
    { name: `${language} login`, mail: magicLinkEmail('login', link, 'Acme', 60, language) },
    { name: `${language} signup`, mail: magicLinkEmail('signup', link, 'Acme', 60, language) },
    {
      name: `${language} discovery`,
      mail: magicLinkEmail('discovery', link, 'Acme', 60, language),
    },
    { name: `${language} reset`, mail: passwordResetEmail(link, 'Acme', 30, language) },
    { name: `${language} invite`, mail: inviteEmail(link, 'Acme', 10_080, language) },
    { name: `${language} paused`, mail: passwordPausedEmail(link, 'Acme', 60, 15, language) },
  ]);

  it('points at the link that follows, not at a button it does not have', () => {
    for (const { name, mail } of mails) {
      expect(mail.text, name).not.toMatch(/button|botón/i);
      expect(mail.text, name).toMatch(
        /(Open this link|Abre este enlace|link below|enlace de abajo)/,
      );
      // The words end with a colon or a full stop just above the link, which has a line to itself.
      expect(mail.text.split('\n'), name).toContain(link);
      // The HTML part keeps its button, and the words that lead to it.
      expect(mail.html, name).toMatch(/button below|botón de abajo/);
      expect(mail.html, name).toContain(`href="${link}"`);
    }
    expect(mails.map((m) => m.mail.text.split('\n')[0])).toEqual(
      expect.arrayContaining([
        'Open this link to log in to Acme:',
        'Open this link to join Acme:',
        'Abre este enlace para iniciar sesión y elegir tu organización:',
        'Alguien ha solicitado restablecer la contraseña de tu cuenta de Acme. Abre este enlace para elegir una nueva:',
      ]),
    );
  });
});

describe('a Spanish magic link over SMTP', () => {
  let smtp: SmtpReceiver;
  let h: Harness;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    h = await startHarness({
      config: {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false },
        emailFrom: 'login@acme.example',
      },
    });
  });

  afterAll(async () => {
    await h.close();
    await smtp.close();
  });

  const nextMail = async () => decodeMime((await smtp.next()).raw);

  it('arrives in Spanish, subject, text and HTML, with the link intact', async () => {
    const res = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: {
        email_address: 'ada@acme.test',
        organization_id: h.org.organization_id,
        locale: 'es',
      },
    });
    expect(res.status).toBe(200);
    const mail = await nextMail();
    expect(mail).toContain('Subject: Tu enlace para iniciar sesión en Acme');
    expect(mail).toContain('Haz clic en el botón de abajo para iniciar sesión en Acme.');
    expect(mail).toContain('caduca en 60 minutos');
    expect(mail).toContain('<html lang="es">');
    expect(mail).toContain('>Iniciar sesión</a>');
    expect(mail).not.toContain('Click the button');
    expect(mail).toMatch(/stytch_token_type=multi_tenant_magic_links&(amp;)?token=[\w-]{43}/);
  });

  it('arrives in English for a language the server has no copy for', async () => {
    const res = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: {
        email_address: 'ada@acme.test',
        organization_id: h.org.organization_id,
        locale: 'pt-BR',
      },
    });
    expect(res.status).toBe(200);
    const mail = await nextMail();
    expect(mail).toContain('Subject: Your login link for Acme');
    expect(mail).toContain('<html lang="en">');
  });
});

describe('locale on the calls that send (dev outbox)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const newest = async (to: string): Promise<OutboxMessage> => {
    const message = (await h.admin.listOutbox({ limit: 50 })).find((m) => m.to === to);
    if (!message) throw new Error(`No message to ${to}`);
    return message;
  };

  it('sends the discovery e-mail in the language of a regional tag', async () => {
    const res = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'carla@acme.test', locale: 'es-MX' },
    });
    expect(res.status).toBe(200);
    const mail = await newest('carla@acme.test');
    expect(mail.subject).toBe('Tu enlace de inicio de sesión');
    expect(mail.text).toContain('elegir tu organización');
    expect(mail.text).toContain('caduca en ');
  });

  it('sends the password reset e-mail in Spanish', async () => {
    const res = await h.call(ENDPOINTS.passwordsResetStart, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        reset_password_expiration_minutes: 2880,
        locale: 'es',
      },
    });
    expect(res.status).toBe(200);
    const mail = await newest('ada@acme.test');
    expect(mail.subject).toBe('Restablece tu contraseña de Acme');
    expect(mail.text).toContain('caduca en 2 días');
    expect(mail.html).toContain('>Restablecer contraseña</a>');
  });

  it('answers 400 for a malformed locale on every call that takes one, and sends nothing', async () => {
    const before = (await h.admin.listOutbox({ limit: 1000 })).length;
    for (const locale of ['es_ES', 'español', 'e', 'es-', `es-${'x'.repeat(40)}`]) {
      const send = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id, locale },
      });
      expect([send.status, send.error?.error_type]).toEqual([400, 'invalid_request']);
      const reset = await h.call(ENDPOINTS.passwordsResetStart, {
        body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test', locale },
      });
      expect(reset.status).toBe(400);
    }
    expect((await h.admin.listOutbox({ limit: 1000 })).length).toBe(before);
  });

  it('texts codes in the language of the sign-in, and remembers it on the member', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-es');
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550177',
      mfa_phone_number_verified: true,
    });
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: email, organization_id: org.organization_id },
    });
    const pending = expectOk(
      await h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: {
          magic_links_token: await h.lastToken(email),
          session_duration_minutes: 60,
          locale: 'es',
        },
      }),
    );
    expect(pending.mfa_required?.secondary_auth_initiated).toBe('sms_otp');
    expect((await lastSms(h, '+14155550177')).text).toMatch(
      /^Tu código de verificación de Acme Cloud es \d{6}\. Caduca en 2 minutos\.$/,
    );
    const row = await h.db
      .selectFrom('members')
      .select('locale')
      .where('id', '=', member.member_id)
      .executeTakeFirstOrThrow();
    expect(row.locale).toBe('es');

    // A resend through otps/sms/send follows its own locale.
    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const resend = await h.call(ENDPOINTS.smsSend, {
      body: {
        ...ids,
        intermediate_session_token: pending.intermediate_session_token,
        locale: 'en',
      },
    });
    expect(resend.status).toBe(200);
    expect((await lastSms(h, '+14155550177')).text).toMatch(/^Your Acme Cloud verification code/);
  });

  it('keeps English for members who never sent a locale', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-en');
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550178',
      mfa_phone_number_verified: true,
    });
    await magicLogin(h, email, org.organization_id);
    expect((await lastSms(h, '+14155550178')).text).toMatch(/^Your Acme Cloud verification code/);
  });
});

describe('the paused-login e-mail', () => {
  let strict: Harness;
  const PASSWORD = 'Velvet-Harbor-Compass-77';
  beforeAll(async () => {
    strict = await startHarness({
      config: { trustProxy: 1, passwordThrottle: { attemptsPerEmail: 3, windowMinutes: 60 } },
    });
    await strict.admin.setMemberPassword(strict.project.project_id, strict.member.member_id, {
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await strict.close();
  });

  const login = (ip: string, password: string, locale: string) =>
    strict.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: strict.org.organization_id,
        email_address: 'ada@acme.test',
        password,
        session_duration_minutes: 60,
        locale,
      },
      headers: { 'x-forwarded-for': ip },
    });

  it('goes out in the language the member signed in with, not the guessers’', async () => {
    expect((await login('10.0.1.1', PASSWORD, 'es-ES')).status).toBe(200);
    for (const n of [2, 3, 4, 5]) {
      expect((await login(`10.0.1.${n}`, 'wrong', 'en')).status).toBeGreaterThanOrEqual(400);
    }
    const notice = (await strict.admin.listOutbox({ limit: 100 })).find(
      (m) => m.to === 'ada@acme.test' && m.subject.includes('Acme'),
    );
    expect(notice?.subject).toBe('El inicio de sesión con contraseña en Acme está en pausa');
    expect(notice?.text).toContain('demasiados intentos fallidos');
    expect(notice?.links).toHaveLength(1);
  });

  it('is written in the member’s language, with or without a link', () => {
    const withLink = passwordPausedEmail('https://app.example/l?t=1', 'Acme', 60, 15, 'es');
    expect(withLink.subject).toBe('El inicio de sesión con contraseña en Acme está en pausa');
    expect(withLink.text).toContain('durante un máximo de 60 minutos');
    expect(withLink.text).toContain('caduca en 15 minutos');
    expect(withLink.html).toContain('<html lang="es">');
    const directions = passwordPausedEmail(null, 'Acme', 120, 15, 'es-AR');
    expect(directions.text).toContain('durante un máximo de 2 horas');
    expect(directions.text).toContain('«¿Tienes problemas para iniciar sesión?»');
    expect(passwordPausedEmail(null, 'Acme', 1, 15, null).text).toContain('for up to 1 minute.');
  });
});
