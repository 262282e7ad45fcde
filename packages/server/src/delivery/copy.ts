/**
 * The words of the server's e-mails and texts, one table per language (docs/protocol.md §7,
 * `locale`). A request's locale picks the table of its language; any other is English.
 */

/** The languages the server writes in. */
export const LANGUAGES = ['en', 'es'] as const;
/** A language the server writes in. */
export type Language = (typeof LANGUAGES)[number];

/**
 * The language to write in for a BCP 47 tag: `es-MX` → `es`; anything the server has no copy
 * for, or no tag at all, → `en`.
 *
 * @example
 * languageOf('es-MX'); // 'es'
 * languageOf('pt-BR'); // 'en'
 */
export function languageOf(locale: string | null | undefined): Language {
  const language = (locale ?? '').split('-')[0]!.toLowerCase();
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/** One language's words; `{…}` values are filled by the functions. */
export interface Copy {
  language: Language;
  minutes: (n: number) => string;
  hours: (n: number) => string;
  days: (n: number) => string;
  magicLink: Record<
    'login' | 'signup' | 'discovery',
    {
      subject: (org: string) => string;
      /** The HTML part's words, above its button. */
      lead: (org: string) => string;
      /** The text part's words, above the bare link: plain text has no button. */
      textLead: (org: string) => string;
      button: string;
    }
  >;
  magicLinkFooter: (lifetime: string) => string;
  /** An invitation into an organization (`magic_links/email/invite`). */
  invite: {
    subject: (org: string) => string;
    lead: (org: string) => string;
    textLead: (org: string) => string;
    button: string;
    footer: (lifetime: string) => string;
  };
  reset: {
    subject: (org: string) => string;
    lead: (org: string) => string;
    textLead: (org: string) => string;
    button: string;
    footer: (lifetime: string) => string;
  };
  paused: {
    subject: (org: string) => string;
    lead: (org: string, resumesIn: string) => string;
    withLink: string;
    withLinkText: string;
    button: string;
    linkFooter: (lifetime: string) => string;
    ways: string;
    after: string;
  };
  sms: (appName: string, code: string, minutes: number) => string;
}

const en: Copy = {
  language: 'en',
  minutes: (n) => (n === 1 ? '1 minute' : `${n} minutes`),
  hours: (n) => (n === 1 ? '1 hour' : `${n} hours`),
  days: (n) => (n === 1 ? '1 day' : `${n} days`),
  magicLink: {
    login: {
      subject: (org) => `Your login link for ${org}`,
      lead: (org) => `Click the button below to log in to ${org}.`,
      textLead: (org) => `Open this link to log in to ${org}:`,
      button: 'Log in',
    },
    signup: {
      subject: (org) => `Finish signing up for ${org}`,
      lead: (org) => `Click the button below to join ${org}.`,
      textLead: (org) => `Open this link to join ${org}:`,
      button: 'Sign up',
    },
    discovery: {
      subject: () => 'Your login link',
      lead: () => 'Click the button below to log in and choose your organization.',
      textLead: () => 'Open this link to log in and choose your organization:',
      button: 'Log in',
    },
  },
  magicLinkFooter: (lifetime) =>
    `This link can be used once and expires in ${lifetime}. If you did not ask for it, you can ignore this e-mail.`,
  invite: {
    subject: (org) => `You are invited to join ${org}`,
    lead: (org) => `You have been invited to join ${org}. Click the button below to accept.`,
    textLead: (org) => `You have been invited to join ${org}. Open this link to accept:`,
    button: 'Accept invitation',
    footer: (lifetime) =>
      `This link can be used once and expires in ${lifetime}. If you were not expecting this invitation, you can ignore this e-mail.`,
  },
  reset: {
    subject: (org) => `Reset your password for ${org}`,
    lead: (org) =>
      `Someone asked to reset the password of your ${org} account. Click the button below to choose a new password.`,
    textLead: (org) =>
      `Someone asked to reset the password of your ${org} account. Open this link to choose a new password:`,
    button: 'Reset password',
    footer: (lifetime) =>
      `This link can be used once and expires in ${lifetime}. If you did not ask for a new password, you can ignore this e-mail: your password stays as it is.`,
  },
  paused: {
    subject: (org) => `Password login to ${org} is paused`,
    lead: (org, resumesIn) =>
      `There have been too many failed attempts to log in to your ${org} account with a password, so password login for it is paused for up to ${resumesIn}.`,
    withLink:
      'You can still log in with the button below, or reset your password from the login page.',
    withLinkText:
      'You can still log in with the link below, or reset your password from the login page.',
    button: 'Log in',
    linkFooter: (lifetime) => `This link can be used once and expires in ${lifetime}.`,
    ways: 'You can still log in with an email link, or reset your password with "Having trouble signing in?" on the login page.',
    after:
      'If these attempts were not yours, someone may be guessing your password: consider choosing a new one once you are logged in. Password login resumes by itself, or as soon as you set a new password.',
  },
  sms: (appName, code, minutes) =>
    `Your ${appName} verification code is ${code}. It expires in ${minutes} minutes.`,
};

const es: Copy = {
  language: 'es',
  minutes: (n) => (n === 1 ? '1 minuto' : `${n} minutos`),
  hours: (n) => (n === 1 ? '1 hora' : `${n} horas`),
  days: (n) => (n === 1 ? '1 día' : `${n} días`),
  magicLink: {
    login: {
      subject: (org) => `Tu enlace para iniciar sesión en ${org}`,
      lead: (org) => `Haz clic en el botón de abajo para iniciar sesión en ${org}.`,
      textLead: (org) => `Abre este enlace para iniciar sesión en ${org}:`,
      button: 'Iniciar sesión',
    },
    signup: {
      subject: (org) => `Completa tu registro en ${org}`,
      lead: (org) => `Haz clic en el botón de abajo para unirte a ${org}.`,
      textLead: (org) => `Abre este enlace para unirte a ${org}:`,
      button: 'Registrarse',
    },
    discovery: {
      subject: () => 'Tu enlace de inicio de sesión',
      lead: () => 'Haz clic en el botón de abajo para iniciar sesión y elegir tu organización.',
      textLead: () => 'Abre este enlace para iniciar sesión y elegir tu organización:',
      button: 'Iniciar sesión',
    },
  },
  magicLinkFooter: (lifetime) =>
    `Este enlace solo se puede usar una vez y caduca en ${lifetime}. Si no lo has solicitado, puedes ignorar este correo.`,
  invite: {
    subject: (org) => `Te han invitado a unirte a ${org}`,
    lead: (org) =>
      `Te han invitado a unirte a ${org}. Haz clic en el botón de abajo para aceptar la invitación.`,
    textLead: (org) =>
      `Te han invitado a unirte a ${org}. Abre este enlace para aceptar la invitación:`,
    button: 'Aceptar invitación',
    footer: (lifetime) =>
      `Este enlace solo se puede usar una vez y caduca en ${lifetime}. Si no esperabas esta invitación, puedes ignorar este correo.`,
  },
  reset: {
    subject: (org) => `Restablece tu contraseña de ${org}`,
    lead: (org) =>
      `Alguien ha solicitado restablecer la contraseña de tu cuenta de ${org}. Haz clic en el botón de abajo para elegir una nueva.`,
    textLead: (org) =>
      `Alguien ha solicitado restablecer la contraseña de tu cuenta de ${org}. Abre este enlace para elegir una nueva:`,
    button: 'Restablecer contraseña',
    footer: (lifetime) =>
      `Este enlace solo se puede usar una vez y caduca en ${lifetime}. Si no has pedido una nueva contraseña, puedes ignorar este correo: tu contraseña seguirá siendo la misma.`,
  },
  paused: {
    subject: (org) => `El inicio de sesión con contraseña en ${org} está en pausa`,
    lead: (org, resumesIn) =>
      `Ha habido demasiados intentos fallidos de iniciar sesión con contraseña en tu cuenta de ${org}, por lo que el inicio de sesión con contraseña queda en pausa durante un máximo de ${resumesIn}.`,
    withLink:
      'Aún puedes iniciar sesión con el botón de abajo o restablecer tu contraseña desde la página de inicio de sesión.',
    withLinkText:
      'Aún puedes iniciar sesión con el enlace de abajo o restablecer tu contraseña desde la página de inicio de sesión.',
    button: 'Iniciar sesión',
    linkFooter: (lifetime) => `Este enlace solo se puede usar una vez y caduca en ${lifetime}.`,
    ways: 'Aún puedes iniciar sesión con un enlace por correo electrónico o restablecer tu contraseña con «¿Tienes problemas para iniciar sesión?» en la página de inicio de sesión.',
    after:
      'Si estos intentos no fueron tuyos, es posible que alguien esté intentando adivinar tu contraseña: te recomendamos elegir una nueva cuando hayas iniciado sesión. El inicio de sesión con contraseña se reanuda solo, o en cuanto establezcas una nueva contraseña.',
  },
  sms: (appName, code, minutes) =>
    `Tu código de verificación de ${appName} es ${code}. Caduca en ${minutes} minutos.`,
};

const COPY: Record<Language, Copy> = { en, es };

/**
 * The words for a request's or member's locale.
 *
 * @example
 * copyFor('es').reset.button; // 'Restablecer contraseña'
 */
export function copyFor(locale: string | null | undefined): Copy {
  return COPY[languageOf(locale)];
}
