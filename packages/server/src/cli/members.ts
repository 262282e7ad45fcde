/**
 * `gatehouse member create`, `member invite` and `member update`: members, invitations, their
 * password and MFA settings.
 */
import { MFA_METHODS } from '@gatehouse/protocol';
import { choice, defineCommand, option, trueOrFalse, UsageError } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { organizationIdOf, withRuntime } from './open.js';

/** Creates an active member, optionally with a password. */
export const memberCreate = defineCommand({
  name: ['member', 'create'],
  summary: 'Create a member of an organization (optionally with a password)',
  usage: '--project ID --org ORG_ID_OR_SLUG --email E [--name N] [--password P] [--role R]…',
  description:
    'Creates an active member of an organization. With --password, the member can log in with ' +
    'that password; it must satisfy the project’s password policy. Each --role must be a role of ' +
    'the project’s RBAC policy (`gatehouse rbac show`); every member has member. All or nothing: ' +
    'an address or password the management API would refuse creates no member, and the error ' +
    'names the same error_type.',
  options: {
    project: option('ID', 'The project').required(),
    org: option('ORG_ID_OR_SLUG', 'The organization, by id or slug').required(),
    email: option('E', 'The member’s e-mail address').required(),
    name: option('N', 'The member’s name'),
    password: option('P', 'A password to sign in with'),
    role: option('R', 'A role to assign directly').repeatable(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withRuntime(io, async ({ admin }) => {
      const orgId = await organizationIdOf(admin, values.project, values.org);
      const member = await admin.createMember(values.project, orgId, {
        email_address: values.email,
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(values.role.length > 0 ? { roles: values.role } : {}),
        ...(values.password === undefined ? {} : { password: values.password }),
      });
      io.stdout(
        `Member created.\nmember_id: ${member.member_id}\nemail:     ${member.email_address}\n` +
          `roles:     ${member.roles.map((r) => r.role_id).join(', ')}\n` +
          (values.password === undefined ? '' : `password_id: ${member.member_password_id}\n`),
      );
    });
  },
});

/** Invites someone into an organization by e-mail, as the management API's invite does. */
export const memberInvite = defineCommand({
  name: ['member', 'invite'],
  summary: 'Invite someone into an organization by e-mail',
  usage:
    '--project ID --org ORG_ID_OR_SLUG --email E [--name N] [--role R]… [--redirect-url URL] ' +
    '[--locale L]',
  description:
    'Creates a member with status invited (or invites an invited or pending one again) and ' +
    'e-mails a link that makes them active and signs them in, once, within a week. The link ' +
    'opens --redirect-url, which must be on the project’s signup or login redirect URL ' +
    'allow-list (by default the first signup URL). Each --role must be a role of the project’s ' +
    'RBAC policy. An active member is refused with member_already_active. The e-mail is queued ' +
    'in the database and sent by the running server.',
  options: {
    project: option('ID', 'The project').required(),
    org: option('ORG_ID_OR_SLUG', 'The organization, by id or slug').required(),
    email: option('E', 'The address to invite').required(),
    name: option('N', 'The member’s name'),
    role: option('R', 'A role to assign directly').repeatable(),
    'redirect-url': option('URL', 'Where the invitation link leads'),
    locale: option('L', 'The language of the e-mail (en, es, …)'),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withRuntime(io, async ({ admin }) => {
      const orgId = await organizationIdOf(admin, values.project, values.org);
      const { member } = await admin.inviteMember(values.project, orgId, {
        email_address: values.email,
        name: values.name,
        ...(values.role.length > 0 ? { roles: values.role } : {}),
        invite_redirect_url: values['redirect-url'],
        locale: values.locale,
      });
      io.stdout(
        `Invitation sent.\nmember_id: ${member.member_id}\nemail:     ${member.email_address}\n` +
          `status:    ${member.status}\nroles:     ${member.roles.map((r) => r.role_id).join(', ')}\n`,
      );
    });
  },
});

/** Changes a member's MFA settings, finding the member by id or by organization and e-mail. */
export const memberUpdate = defineCommand({
  name: ['member', 'update'],
  summary: 'Change a member’s MFA settings',
  usage:
    '--project ID (--member ID | --org ORG_ID_OR_SLUG --email E) [--mfa-enrolled true|false] ' +
    `[--phone P] [--phone-verified true|false] [--default-mfa-method ${MFA_METHODS.join('|')}|none]`,
  description:
    'Changes a member’s MFA settings; what is not given stays. --phone takes any usual format ' +
    '(stored as E.164; "" removes it) and is unverified unless --phone-verified true is given.',
  options: {
    project: option('ID', 'The project').required(),
    member: option('ID', 'The member, by id'),
    org: option('ORG_ID_OR_SLUG', 'The member’s organization, by id or slug (with --email)'),
    email: option('E', 'The member’s e-mail address (with --org)'),
    'mfa-enrolled': option('true|false', 'Whether the member must use a second factor', {
      parse: trueOrFalse,
    }),
    phone: option('P', 'The phone number for SMS codes'),
    'phone-verified': option('true|false', 'Whether that phone number is verified', {
      parse: trueOrFalse,
    }),
    'default-mfa-method': choice(
      [...MFA_METHODS, 'none'],
      'The second factor offered first; none clears it',
    ),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const { member: memberRef, org: orgRef, email } = values;
    const target =
      memberRef !== undefined
        ? { by: 'id' as const, memberId: memberRef }
        : orgRef !== undefined && email !== undefined
          ? { by: 'email' as const, orgRef, email }
          : null;
    if (!target) throw new UsageError('--member, or --org and --email, is required');
    const method = values['default-mfa-method'];
    const patch = {
      mfa_enrolled: values['mfa-enrolled'],
      mfa_phone_number: values.phone,
      mfa_phone_number_verified: values['phone-verified'],
      default_mfa_method: method === 'none' ? ('' as const) : method,
    };
    await withRuntime(io, async ({ admin }) => {
      let memberId: string;
      if (target.by === 'id') {
        memberId = target.memberId;
      } else {
        const orgId = await organizationIdOf(admin, values.project, target.orgRef);
        const found = await admin.getMemberByEmail(values.project, orgId, target.email);
        if (!found) throw new UsageError(`No member ${target.email} in that organization`);
        memberId = found.member_id;
      }
      const member = await admin.updateMember(values.project, memberId, patch);
      io.stdout(
        `Member updated.\nmember_id:                 ${member.member_id}\n` +
          `mfa_enrolled:              ${String(member.mfa_enrolled)}\n` +
          `mfa_phone_number:          ${member.mfa_phone_number}\n` +
          `mfa_phone_number_verified: ${String(member.mfa_phone_number_verified)}\n` +
          `default_mfa_method:        ${member.default_mfa_method || 'none'}\n`,
      );
    });
  },
});
