/**
 * The domains section: the organization's e-mail domains proven by DNS (docs/protocol.md §7.12),
 * each with the TXT record to publish, verified on demand; for members who may change the
 * organization's allowed domains (`stytch.organization` `update.settings.allowed-domains`).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { OrganizationDomain } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import { CopyField } from './copy-field.js';
import { Notice, useNotice, type NoticeState } from './notice.js';
import { useAction } from './use-action.js';

export function DomainsSection() {
  const { admin, format } = useAdmin();
  const id = useId();
  const [domains, setDomains] = useState<OrganizationDomain[] | null>(null);
  const [name, setName] = useState('');
  const notice = useNotice();
  const load = useAction(format, async () => {
    setDomains((await admin.organization.domains.list()).domains);
  });
  const add = useAction(format, async () => {
    const { domain } = await admin.organization.domains.add({ domain: name.trim() });
    setDomains((shown) => [...(shown ?? []), domain]);
    setName('');
    notice.show(format('domains.added', { domain: domain.domain }));
  });
  const { run } = load;
  useEffect(() => {
    void run();
  }, [run]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add.run();
  };
  const replace = (next: OrganizationDomain | null, domainId: string) =>
    setDomains(
      (shown) =>
        shown?.flatMap((d) => (d.domain_id !== domainId ? [d] : next ? [next] : [])) ?? null,
    );

  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="gh-admin-heading">
        {format('domains.heading')}
      </h2>
      <p className="gh-text-secondary">{format('domains.intro')}</p>
      <Notice notice={notice} />
      <form className="gh-admin-form gh-admin-card" onSubmit={submit}>
        <div className="gh-admin-field">
          <label htmlFor={`${id}-domain`}>{format('domains.domain')}</label>
          <input
            id={`${id}-domain`}
            className="gh-input"
            required
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <FormError id={`${id}-add-error`} message={add.error} />
        <Button type="submit" loading={add.busy}>
          {format('domains.add')}
        </Button>
      </form>
      <FormError id={`${id}-error`} message={load.error} />
      {!domains ? (
        !load.error && <Spinner />
      ) : domains.length === 0 ? (
        <p className="gh-text-secondary">{format('domains.empty')}</p>
      ) : (
        <ul className="gh-admin-list">
          {domains.map((domain) => (
            <DomainRow key={domain.domain_id} domain={domain} onChanged={replace} notice={notice} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DomainRow({
  domain,
  onChanged,
  notice,
}: {
  domain: OrganizationDomain;
  /** The domain as it is now, or null once removed. */
  onChanged: (next: OrganizationDomain | null, domainId: string) => void;
  notice: NoticeState;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const verify = useAction(format, async () => {
    const answer = await admin.organization.domains.verify(domain.domain_id);
    onChanged(answer.domain, domain.domain_id);
    notice.show(format('domains.verified', { domain: domain.domain }));
  });
  const remove = useAction(format, async () => {
    await admin.organization.domains.delete(domain.domain_id);
    onChanged(null, domain.domain_id);
    notice.show(format('domains.removed', { domain: domain.domain }));
  });
  const verified = domain.status === 'verified';
  return (
    <li className="gh-admin-row" aria-labelledby={`${id}-name`}>
      <div className="gh-admin-row-main">
        <span id={`${id}-name`} className="gh-admin-email">
          {domain.domain}
        </span>
        <span className={`gh-admin-badge gh-admin-status-${verified ? 'active' : 'invited'}`}>
          {format(verified ? 'domains.status.verified' : 'domains.status.pending')}
        </span>
      </div>
      {!verified && (
        <>
          <CopyField label={format('domains.recordName')} value={domain.txt_record.name} />
          <CopyField label={format('domains.recordValue')} value={domain.txt_record.value} />
        </>
      )}
      <div
        className="gh-admin-actions"
        role="group"
        aria-label={format('domains.actions', { domain: domain.domain })}
      >
        {!verified && (
          <Button loading={verify.busy} onClick={() => void verify.run()}>
            {format('domains.verify')}
          </Button>
        )}
        <Button variant="secondary" loading={remove.busy} onClick={() => void remove.run()}>
          {format('domains.remove')}
        </Button>
      </div>
      <FormError id={`${id}-error`} message={verify.error ?? remove.error} />
    </li>
  );
}
