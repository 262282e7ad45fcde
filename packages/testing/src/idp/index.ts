/** Real identity providers for SSO tests: a SAML IdP (samlify) and an OpenID provider (oidc-provider). */
export { startSamlIdp, type SamlIdp, type SamlResponseInput, type SamlUser } from './saml-idp.js';
export { startOidcIdp, type OidcIdp, type OidcUser } from './oidc-idp.js';
export { selfSignedKeyPair, type KeyPair } from './keys.js';
