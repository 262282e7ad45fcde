/**
 * Every user-visible string of the admin portal, in its own table so that the login widget's
 * first screen does not carry them (they load with the portal's chunk). English here, Spanish in
 * `admin-es.ts` (fetched only by portals that speak it); a host passes its own words for any key
 * (`messages`), the rest stay in the portal's language.
 */

export const adminEn = {
  'portal.sections': 'Sections',
  'portal.signedOut': 'Sign in to manage your organization.',
  'portal.noSections': 'You have no administration rights in this organization.',
  'section.members': 'Members',
  'section.settings': 'Settings',
  'section.sso': 'Single sign-on',
  'section.sessions': 'Sessions',
  'sessions.heading': 'Active sessions',
  'sessions.ownHeading': 'Your active sessions',
  'sessions.empty': 'No active sessions.',
  'sessions.count': '{shown} of {total} sessions',
  'sessions.current': 'This session',
  'sessions.started': 'Signed in {time}',
  'sessions.lastUsed': 'Last used {time}',
  'sessions.from': 'From {ip}',
  'sessions.unknownBrowser': 'Unknown browser',
  'sessions.end': 'End session',
  'sessions.endFor': 'End session of {email}, signed in {time}',
  'sessions.ended': 'Session ended',
  'sessions.endOthers': 'End all other sessions',
  'sessions.othersEnded': 'Other sessions ended',
  'common.save': 'Save',
  'common.saved': 'Saved',
  'common.cancel': 'Cancel',
  'common.copy': 'Copy',
  'common.copied': 'Copied',
  'common.copyFailed': "Couldn't copy to clipboard",
  'common.error': 'Something went wrong. Try again.',
  'common.forbidden': 'You are not allowed to do this.',
  'members.search': 'Search by email or name',
  'members.status': 'Status',
  'members.role': 'Role',
  'members.any': 'Any',
  'members.searchButton': 'Search',
  'members.empty': 'No members match.',
  'members.count': '{shown} of {total} members',
  'members.more': 'Show more',
  'members.roles': 'Roles',
  'members.actions': 'Actions for {email}',
  'members.changeRoles': 'Change roles',
  'members.rolesFor': 'Roles of {email}',
  'members.rolesSaved': 'Roles of {email} saved',
  'members.deactivate': 'Deactivate',
  'members.deactivated': '{email} deactivated',
  'members.reactivate': 'Reactivate',
  'members.reactivated': '{email} reactivated',
  'members.confirmDeactivate': 'Deactivate {email}? Their sessions end now.',
  'members.confirm': 'Confirm',
  'members.resetMfa': 'Reset MFA',
  'members.confirmResetMfa':
    'Reset MFA of {email}? Their phone number and authenticator app are removed.',
  'members.mfaReset': 'MFA of {email} reset',
  'members.removePassword': 'Remove password',
  'members.confirmRemovePassword':
    'Remove the password of {email}? They sign in another way or set a new one.',
  'members.passwordRemoved': 'Password of {email} removed',
  'members.roleNotHeld': 'You can give only roles you hold.',
  'status.active': 'Active',
  'status.invited': 'Invited',
  'status.pending': 'Pending',
  'status.deleted': 'Deactivated',
  'invite.heading': 'Invite a member',
  'invite.email': 'Email',
  'invite.name': 'Name (optional)',
  'invite.roles': 'Roles',
  'invite.submit': 'Send invitation',
  'invite.sent': 'Invitation sent to {email}',
  'invite.invalidEmail': 'Invalid email address',
  'invite.resend': 'Resend invitation',
  'invite.resent': 'Invitation sent again to {email}',
  'invite.revoke': 'Revoke invitation',
  'invite.revoked': 'Invitation of {email} revoked',
  'settings.heading': 'Organization settings',
  'settings.readOnly': 'Only members allowed to change the organization can edit these settings.',
  'settings.name': 'Organization name',
  'settings.slug': 'Slug',
  'settings.slugHint': 'The slug is part of sign-in links and cannot be changed here.',
  'settings.logo': 'Logo URL',
  'settings.authMethods': 'Allowed sign-in methods',
  'settings.allMethods': 'All methods',
  'settings.someMethods': 'Only these methods',
  'settings.method.sso': 'Single sign-on',
  'settings.method.magic_link': 'Email login link',
  'settings.method.password': 'Password',
  'settings.method.google_oauth': 'Google',
  'settings.method.microsoft_oauth': 'Microsoft',
  'settings.mfaPolicy': 'Multi-factor authentication',
  'settings.mfaOptional': 'Optional',
  'settings.mfaRequired': 'Required for all members',
  'settings.jit': 'Joining by email domain',
  'settings.jitRestricted': 'Anyone with an address in an allowed domain may join',
  'settings.jitNotAllowed': 'Only invited members may join',
  'settings.domains': 'Allowed email domains',
  'settings.domainsHint': 'One domain per line, such as example.com.',
  'section.domains': 'Domains',
  'domains.heading': 'Email domains',
  'domains.intro':
    'Prove that the organization owns a domain by publishing a DNS TXT record, then verify it.',
  'domains.domain': 'Domain',
  'domains.add': 'Add domain',
  'domains.added': '{domain} added: publish its TXT record, then verify it',
  'domains.empty': 'No domains yet.',
  'domains.status.pending': 'Not verified',
  'domains.status.verified': 'Verified',
  'domains.recordName': 'TXT record name',
  'domains.recordValue': 'TXT record value',
  'domains.actions': 'Actions for {domain}',
  'domains.verify': 'Verify',
  'domains.verified': '{domain} verified',
  'domains.remove': 'Remove',
  'domains.removed': '{domain} removed',
  'sso.heading': 'Single sign-on connections',
  'sso.empty': 'No connections yet.',
  'sso.status.active': 'Active',
  'sso.status.pending': 'Pending',
  'sso.kind.saml': 'SAML',
  'sso.kind.oidc': 'OIDC',
  'sso.entityId': 'SP entity ID',
  'sso.acsUrl': 'ACS URL',
  'sso.metadataUrl': 'SP metadata URL',
  'sso.redirectUrl': 'Redirect URL',
  'sso.newSaml': 'New SAML connection',
  'sso.newOidc': 'New OIDC connection',
  'sso.displayName': 'Display name',
  'sso.metadata': 'IdP metadata XML',
  'sso.metadataHint': 'Paste the metadata document your identity provider gives you.',
  'sso.createSaml': 'Create SAML connection',
  'sso.issuer': 'Issuer URL',
  'sso.clientId': 'Client ID',
  'sso.clientSecret': 'Client secret',
  'sso.createOidc': 'Create OIDC connection',
  'sso.created': 'Connection {name} created',
} as const;

/** A key of the admin portal's message table. */
export type AdminMessageKey = keyof typeof adminEn;

/** The admin portal's words in one language: a string for every key. */
export type AdminMessageTable = { readonly [K in AdminMessageKey]: string };

/** The admin portal's words: the text of a key, with `{name}` placeholders filled in. */
export type AdminFormat = (key: AdminMessageKey, values?: Record<string, string>) => string;

/**
 * The format function over English with a host's words on top (unknown keys and non-text values
 * are ignored, as in the login widget).
 *
 * @example
 * const format = adminFormat({ 'members.deactivate': 'Suspend' });
 * format('members.count', { shown: '20', total: '42' }); // '20 of 42 members'
 */
export function adminFormat(
  overrides: Partial<Record<string, unknown>> = {},
  base: AdminMessageTable = adminEn,
): AdminFormat {
  const table: Record<string, string> = { ...adminEn, ...base };
  for (const [key, text] of Object.entries(overrides)) {
    if (key in adminEn && typeof text === 'string') table[key] = text;
  }
  return (key, values) => {
    const template = table[key] ?? key;
    if (!values) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  };
}
