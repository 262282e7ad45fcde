/** The members section: search and filter the organization's members, invite, change and deactivate. */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { Member } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { InviteForm } from './invite-form.js';
import { MemberRow } from './member-row.js';
import { PAGE_SIZE, STATUSES, searchQuery, type MemberFilters } from './members-query.js';
import { Notice, useNotice } from './notice.js';
import { useAction } from './use-action.js';

const NO_FILTERS: MemberFilters = { text: '', status: '', role: '' };

export function MembersSection() {
  const { admin, format, rights, roles } = useAdmin();
  const id = useId();
  const [draft, setDraft] = useState<MemberFilters>(NO_FILTERS);
  const [members, setMembers] = useState<Member[] | null>(null);
  const [total, setTotal] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const [applied, setApplied] = useState<MemberFilters>(NO_FILTERS);
  const notice = useNotice();

  const search = useAction(format, async (filters: MemberFilters, after: string | null) => {
    const page = await admin.organization.members.list({
      limit: PAGE_SIZE,
      ...(after ? { cursor: after } : {}),
      ...(searchQuery(filters) ? { query: searchQuery(filters) } : {}),
    });
    setMembers((shown) => (after && shown ? [...shown, ...page.members] : page.members));
    setTotal(page.results_metadata.total);
    setCursor(page.results_metadata.next_cursor);
    setApplied(filters);
  });
  const { run } = search;

  useEffect(() => {
    void run(NO_FILTERS, null);
  }, [run]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(draft, null);
  };

  const replace = useCallback((updated: Member) => {
    setMembers(
      (shown) => shown?.map((m) => (m.member_id === updated.member_id ? updated : m)) ?? null,
    );
  }, []);

  const invited = useCallback(
    (member: Member) => {
      notice.show(format('invite.sent', { email: member.email_address }));
      setMembers((shown) => [
        member,
        ...(shown ?? []).filter((m) => m.member_id !== member.member_id),
      ]);
      setTotal((n) => n + 1);
    },
    [format, notice],
  );

  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="gh-admin-heading">
        {format('section.members')}
      </h2>
      <Notice notice={notice} />
      {rights.inviteMembers && <InviteForm onInvited={invited} />}
      <form role="search" className="gh-admin-filters" onSubmit={submit}>
        <div className="gh-admin-field gh-admin-grow">
          <label htmlFor={`${id}-text`}>{format('members.search')}</label>
          <input
            id={`${id}-text`}
            className="gh-input"
            type="search"
            value={draft.text}
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
          />
        </div>
        <div className="gh-admin-field">
          <label htmlFor={`${id}-status`}>{format('members.status')}</label>
          <select
            id={`${id}-status`}
            className="gh-input"
            value={draft.status}
            onChange={(e) =>
              setDraft({ ...draft, status: e.target.value as MemberFilters['status'] })
            }
          >
            <option value="">{format('members.any')}</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {format(`status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="gh-admin-field">
          <label htmlFor={`${id}-role`}>{format('members.role')}</label>
          <select
            id={`${id}-role`}
            className="gh-input"
            value={draft.role}
            onChange={(e) => setDraft({ ...draft, role: e.target.value })}
          >
            <option value="">{format('members.any')}</option>
            {roles.map((role) => (
              <option key={role.role_id} value={role.role_id}>
                {role.role_id}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary" loading={search.busy && !cursor}>
          {format('members.searchButton')}
        </Button>
      </form>
      <FormError id={`${id}-error`} message={search.error} />
      {members && (
        <p className="gh-text-secondary gh-admin-count" aria-live="polite">
          {members.length === 0
            ? format('members.empty')
            : format('members.count', { shown: String(members.length), total: String(total) })}
        </p>
      )}
      {members && members.length > 0 && (
        <ul className="gh-admin-list" aria-busy={search.busy || undefined}>
          {members.map((member) => (
            <MemberRow key={member.member_id} member={member} onChanged={replace} notice={notice} />
          ))}
        </ul>
      )}
      {cursor && (
        <Button variant="secondary" loading={search.busy} onClick={() => void run(applied, cursor)}>
          {format('members.more')}
        </Button>
      )}
    </section>
  );
}
