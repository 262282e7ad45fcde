/**
 * E-mail templates: each message has a plain-text and an HTML body carrying the same link, in the
 * language of the request or member (`copy.ts`).
 */
import { copyFor, type Copy } from './copy.js';

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

/**
 * The parts of an e-mail that carries one link: as a button under `lead` in the HTML part, bare
 * under `textLead` in the text part, which has no button to point at.
 */
interface LinkEmailParts {
  subject: string;
  lead: string;
  textLead: string;
  button: string;
  link: string;
  footer: string;
}

/** The HTML page every e-mail shares: a centred white card holding `content` (already escaped). */
function emailPage(copy: Copy, content: string): string {
  return `<!doctype html>
<html lang="${copy.language}">
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
function linkEmail(
  copy: Copy,
  { subject, lead, textLead, button, link, footer }: LinkEmailParts,
): RenderedEmail {
  const text = [textLead, '', link, '', footer].join('\n');
  const html = emailPage(
    copy,
    `<p style="font-size:16px;line-height:24px;margin:0 0 24px">${escapeHtml(lead)}</p>
            <p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1f2328;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:4px;font-size:16px">${escapeHtml(button)}</a></p>
            <p style="font-size:13px;line-height:20px;color:#57606a;margin:0">${escapeHtml(footer)}</p>`,
  );
  return { subject, text, html, links: [link] };
}

/**
 * The magic-link e-mail, in the language of `locale` (English by default).
 *
 * @example
 * const mail = magicLinkEmail('login', link, 'Acme', 60, 'es');
 */
export function magicLinkEmail(
  kind: MagicLinkKind,
  link: string,
  organizationName: string,
  validMinutes: number,
  locale?: string | null,
): RenderedEmail {
  const copy = copyFor(locale);
  const lifetime =
    validMinutes >= 1440 ? copy.days(Math.round(validMinutes / 1440)) : copy.minutes(validMinutes);
  return copyLinkEmail(
    copy,
    copy.magicLink[kind],
    link,
    organizationName,
    copy.magicLinkFooter(lifetime),
  );
}

/** A link's lifetime in whole days when it is that, otherwise as `shorter` says it. */
function wholeDaysOr(copy: Copy, minutes: number, shorter: (minutes: number) => string): string {
  return minutes >= 1440 && minutes % 1440 === 0 ? copy.days(minutes / 1440) : shorter(minutes);
}

/** A one-link e-mail in the words of one block of the copy, under `footer`. */
function copyLinkEmail(
  copy: Copy,
  words: Pick<Copy['invite'], 'subject' | 'lead' | 'textLead' | 'button'>,
  link: string,
  organizationName: string,
  footer: string,
): RenderedEmail {
  return linkEmail(copy, {
    subject: words.subject(organizationName),
    lead: words.lead(organizationName),
    textLead: words.textLead(organizationName),
    button: words.button,
    link,
    footer,
  });
}

/**
 * The password reset e-mail: a link to the app's reset page, where the member chooses a new
 * password.
 *
 * @example
 * const mail = passwordResetEmail(link, 'Acme', 30, 'es');
 */
export function passwordResetEmail(
  link: string,
  organizationName: string,
  validMinutes: number,
  locale?: string | null,
): RenderedEmail {
  const copy = copyFor(locale);
  const lifetime = wholeDaysOr(copy, validMinutes, copy.minutes);
  return copyLinkEmail(copy, copy.reset, link, organizationName, copy.reset.footer(lifetime));
}

/**
 * The invitation e-mail: a link that makes the invited member active and signs them in, valid
 * `validMinutes` (whole days or hours are said so), in the language of `locale`.
 *
 * @example
 * const mail = inviteEmail(link, 'Acme', 10080, 'es'); // "… caduca en 7 días …"
 */
export function inviteEmail(
  link: string,
  organizationName: string,
  validMinutes: number,
  locale?: string | null,
): RenderedEmail {
  const copy = copyFor(locale);
  const lifetime = wholeDaysOr(copy, validMinutes, (minutes) => minutesText(copy, minutes));
  return copyLinkEmail(copy, copy.invite, link, organizationName, copy.invite.footer(lifetime));
}

/** "1 minute", "45 minutes", "2 hours", in the copy's language. */
function minutesText(copy: Copy, minutes: number): string {
  if (minutes >= 120 && minutes % 60 === 0) return copy.hours(minutes / 60);
  return copy.minutes(minutes);
}

/**
 * The e-mail to a member whose password login was paused after too many failed attempts from
 * others: a login link when the project can offer one (`link`), otherwise directions to the
 * login page's other ways in. In the member's language (`locale`), English by default.
 *
 * @example
 * const mail = passwordPausedEmail(link, 'Acme', 42, 60, 'es');
 */
export function passwordPausedEmail(
  link: string | null,
  organizationName: string,
  resumesInMinutes: number,
  linkValidMinutes: number,
  locale?: string | null,
): RenderedEmail {
  const copy = copyFor(locale);
  const words = copy.paused;
  const subject = words.subject(organizationName);
  const lead = words.lead(organizationName, minutesText(copy, resumesInMinutes));
  if (link) {
    return linkEmail(copy, {
      subject,
      lead: `${lead} ${words.withLink}`,
      textLead: `${lead} ${words.withLinkText}`,
      button: words.button,
      link,
      footer: `${words.linkFooter(minutesText(copy, linkValidMinutes))} ${words.after}`,
    });
  }
  const text = [lead, '', words.ways, '', words.after].join('\n');
  const paragraphs = [lead, words.ways, words.after]
    .map((p) => `<p style="font-size:16px;line-height:24px;margin:0 0 16px">${escapeHtml(p)}</p>`)
    .join('\n            ');
  const html = emailPage(copy, paragraphs);
  return { subject, text, html, links: [] };
}
