/** Links that open the big web-mail services, searching for our sender when it is known. */
import { useMessages } from '../messages/use-messages.js';
import { webmailLinks, type WebmailLink } from '../machine/urls.js';

const LABELS: Record<
  WebmailLink['provider'],
  'webmail.gmail' | 'webmail.outlook' | 'webmail.yahoo'
> = {
  gmail: 'webmail.gmail',
  outlook: 'webmail.outlook',
  yahoo: 'webmail.yahoo',
};

export function WebmailLinks({ senderDomain }: { senderDomain: string | null }) {
  const format = useMessages();
  return (
    <div className="gh-webmail">
      {webmailLinks(senderDomain).map((link) => (
        <a
          key={link.provider}
          className="gh-button gh-button-secondary"
          href={link.href}
          target="_blank"
          rel="noopener noreferrer"
        >
          {format(LABELS[link.provider])}
        </a>
      ))}
    </div>
  );
}
