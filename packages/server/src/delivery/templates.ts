/** E-mail templates: each message has a plain-text and an HTML body carrying the same link. */

/** A rendered e-mail, before addressing. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** Which magic-link e-mail to send. */
export type MagicLinkKind = 'login' | 'signup' | 'discovery';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The parts of an e-mail that carries one link as a button. */
interface LinkEmailParts {
  subject: string;
  lead: string;
  button: string;
  link: string;
  footer: string;
}

/** The HTML page every e-mail shares: a centred white card holding `content` (already escaped). */
function emailPage(content: string): string {
  return `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2328">
    <table role="presentation" width="100%" cellspacing="0" cellpadding="0">
      <tr><td align="center">
        <table role="presentation" width="480" cellspacing="0" cellpadding="0" style="background:#ffffff;border-radius:8px;padding:32px">
          <tr><td>
            ${content}
          </td></tr>
        </table>
      </td></tr>
    </table>
  </body>
</html>
`;
}

/** Lays out a one-link e-mail: the same words in the text body and, escaped, in the HTML one. */
function linkEmail({ subject, lead, button, link, footer }: LinkEmailParts): RenderedEmail {
  const text = [lead, '', link, '', footer].join('\n');
  const html =
    emailPage(`<p style="font-size:16px;line-height:24px;margin:0 0 24px">${escapeHtml(lead)}</p>
            <p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1f2328;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:4px;font-size:16px">${escapeHtml(button)}</a></p>
            <p style="font-size:13px;line-height:20px;color:#57606a;margin:0">${escapeHtml(footer)}</p>`);
  return { subject, text, html, links: [link] };
}

const COPY: Record<
  MagicLinkKind,
  { subject: (org: string) => string; lead: (org: string) => string; button: string }
> = {
  login: {
    subject: (org) => `Your login link for ${org}`,
    lead: (org) => `Click the button below to log in to ${org}.`,
    button: 'Log in',
  },
  signup: {
    subject: (org) => `Finish signing up for ${org}`,
    lead: (org) => `Click the button below to join ${org}.`,
    button: 'Sign up',
  },
  discovery: {
    subject: () => 'Your login link',
    lead: () => 'Click the button below to log in and choose your organization.',
    button: 'Log in',
  },
};

/**
 * The magic-link e-mail.
 *
 * @example
 * const mail = magicLinkEmail('login', link, 'Acme', 60);
 */
export function magicLinkEmail(
  kind: MagicLinkKind,
  link: string,
  organizationName: string,
  validMinutes: number,
): RenderedEmail {
  const copy = COPY[kind];
  const lifetime =
    validMinutes >= 1440 ? `${Math.round(validMinutes / 1440)} days` : `${validMinutes} minutes`;
  return linkEmail({
    subject: copy.subject(organizationName),
    lead: copy.lead(organizationName),
    button: copy.button,
    link,
    footer: `This link can be used once and expires in ${lifetime}. If you did not ask for it, you can ignore this e-mail.`,
  });
}

/**
 * The password reset e-mail: a link to the app's reset page, where the member chooses a new
 * password.
 *
 * @example
 * const mail = passwordResetEmail(link, 'Acme', 30);
 */
export function passwordResetEmail(
  link: string,
  organizationName: string,
  validMinutes: number,
): RenderedEmail {
  const lead = `Someone asked to reset the password of your ${organizationName} account. Click the button below to choose a new password.`;
  const lifetime =
    validMinutes >= 1440 && validMinutes % 1440 === 0
      ? `${validMinutes / 1440} days`
      : `${validMinutes} minutes`;
  const footer = `This link can be used once and expires in ${lifetime}. If you did not ask for a new password, you can ignore this e-mail: your password stays as it is.`;
  return linkEmail({
    subject: `Reset your password for ${organizationName}`,
    lead,
    button: 'Reset password',
    link,
    footer,
  });
}

/** "1 minute", "45 minutes", "2 hours". */
function minutesText(minutes: number): string {
  if (minutes >= 120 && minutes % 60 === 0) return `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * The e-mail to a member whose password login was paused after too many failed attempts from
 * others: a login link when the project can offer one (`link`), otherwise directions to the
 * login page's other ways in.
 *
 * @example
 * const mail = passwordPausedEmail(link, 'Acme', 42, 60);
 */
export function passwordPausedEmail(
  link: string | null,
  organizationName: string,
  resumesInMinutes: number,
  linkValidMinutes: number,
): RenderedEmail {
  const subject = `Password login to ${organizationName} is paused`;
  const lead = `There have been too many failed attempts to log in to your ${organizationName} account with a password, so password login for it is paused for up to ${minutesText(resumesInMinutes)}.`;
  const after = `If these attempts were not yours, someone may be guessing your password: consider choosing a new one once you are logged in. Password login resumes by itself, or as soon as you set a new password.`;
  if (link) {
    return linkEmail({
      subject,
      lead: `${lead} You can still log in with the button below, or reset your password from the login page.`,
      button: 'Log in',
      link,
      footer: `This link can be used once and expires in ${minutesText(linkValidMinutes)}. ${after}`,
    });
  }
  const ways = `You can still log in with an email link, or reset your password with "Having trouble signing in?" on the login page.`;
  const text = [lead, '', ways, '', after].join('\n');
  const paragraphs = [lead, ways, after]
    .map((p) => `<p style="font-size:16px;line-height:24px;margin:0 0 16px">${escapeHtml(p)}</p>`)
    .join('\n            ');
  const html = emailPage(paragraphs);
  return { subject, text, html, links: [] };
}
