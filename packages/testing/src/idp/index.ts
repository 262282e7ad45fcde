/**
 * Real identity providers for SSO and OAuth tests: a SAML IdP (samlify), an OpenID provider
 * (oidc-provider), and a stand-in for Google Identity Services (One Tap).
 */
export { startSamlIdp, type SamlIdp, type SamlResponseInput, type SamlUser } from './saml-idp.js';
export { startOidcIdp, type OidcIdp, type OidcUser } from './oidc-idp.js';
export { startGoogleIdentityStandIn, type GoogleIdentityStandIn } from './google-identity.js';
export { selfSignedKeyPair, type KeyPair } from './keys.js';
