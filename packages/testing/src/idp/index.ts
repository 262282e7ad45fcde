/**
 * Real identity providers for SSO and OAuth tests: a SAML IdP (samlify), an OpenID provider
 * (oidc-provider), a stand-in for Google Identity Services (One Tap), and one for the captcha
 * providers.
 */
export { startSamlIdp, type SamlIdp, type SamlResponseInput, type SamlUser } from './saml-idp.js';
export { startOidcIdp, type OidcIdp, type OidcUser } from './oidc-idp.js';
export { startGoogleIdentityStandIn, type GoogleIdentityStandIn } from './google-identity.js';
export { selfSignedKeyPair, type KeyPair } from './keys.js';
export {
  startCaptchaStandIn,
  type CaptchaStandIn,
  type CaptchaStandInProvider,
  type CaptchaVerification,
} from './captcha-provider.js';
