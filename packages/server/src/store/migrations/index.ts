// Every migration in the order it runs, each under the name the database records it by. A name
// never changes once released (databases find what they have applied by it), and a migration only
// ever adds: it is never edited or removed after release. Every statement uses portable types so
// one migration set serves SQLite and PostgreSQL (docs/architecture.md, "Databases").
import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as passwordsAndMfa from './0002-passwords-and-mfa.js';
import * as passwordLockouts from './0003-password-lockouts.js';
import * as recoveryCodeCopies from './0004-recovery-code-copies.js';
import * as passwordThrottle from './0005-password-throttle.js';
import * as factorLockout from './0006-factor-lockout.js';
import * as sso from './0007-sso.js';
import * as oauth from './0008-oauth.js';
import * as oauthBrowserBinding from './0009-oauth-browser-binding.js';
import * as signingKeyRotation from './0010-signing-key-rotation.js';
import * as projectSessionLifetime from './0011-project-session-lifetime.js';
import * as projectWatermark from './0012-project-watermark.js';
import * as rbacPolicies from './0013-rbac-policies.js';
import * as captchaSettings from './0014-captcha-settings.js';
import * as memberLocale from './0015-member-locale.js';
import * as federatedIdentities from './0016-federated-identities.js';
import * as mailQueue from './0017-mail-queue.js';
import * as sessionClient from './0018-session-client.js';
import * as domainVerifications from './0019-domain-verifications.js';
import * as ssoConnectionTests from './0020-sso-connection-tests.js';
import * as federatedRegistrationDetails from './0021-federated-registration-details.js';
import * as passwordResetRequired from './0022-password-reset-required.js';
import * as organizationSessionMax from './0023-organization-session-max.js';
import * as intermediateSessionOrganizations from './0025-intermediate-session-organizations.js';
import * as memberLastSignIn from './0026-member-last-sign-in.js';
import * as fineGrainedBuiltinActions from './0027-fine-grained-builtin-actions.js';
import * as changeNotices from './0028-change-notices.js';
import * as captchaChangeNotices from './0029-captcha-change-notices.js';

/**
 * The migrations by recorded name: file `NNNN-some-name.ts` is migration `NNNN_some_name`, and
 * names sort in the order they run (store/migrations.test.ts checks both).
 *
 * @example
 * Object.keys(MIGRATIONS).at(-1); // '0017_mail_queue'
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_passwords_and_mfa': passwordsAndMfa,
  '0003_password_lockouts': passwordLockouts,
  '0004_recovery_code_copies': recoveryCodeCopies,
  '0005_password_throttle': passwordThrottle,
  '0006_factor_lockout': factorLockout,
  '0007_sso': sso,
  '0008_oauth': oauth,
  '0009_oauth_browser_binding': oauthBrowserBinding,
  '0010_signing_key_rotation': signingKeyRotation,
  '0011_project_session_lifetime': projectSessionLifetime,
  '0012_project_watermark': projectWatermark,
  '0013_rbac_policies': rbacPolicies,
  '0014_captcha_settings': captchaSettings,
  '0015_member_locale': memberLocale,
  '0016_federated_identities': federatedIdentities,
  '0017_mail_queue': mailQueue,
  '0018_session_client': sessionClient,
  '0019_domain_verifications': domainVerifications,
  '0020_sso_connection_tests': ssoConnectionTests,
  '0021_federated_registration_details': federatedRegistrationDetails,
  '0022_password_reset_required': passwordResetRequired,
  '0023_organization_session_max': organizationSessionMax,
  '0025_intermediate_session_organizations': intermediateSessionOrganizations,
  '0026_member_last_sign_in': memberLastSignIn,
  '0027_fine_grained_builtin_actions': fineGrainedBuiltinActions,
  '0028_change_notices': changeNotices,
  '0029_captcha_change_notices': captchaChangeNotices,
};
