/** An organization's logo, or the first letter of its name when it has none. */
import type { FlowOrganization } from '../machine/state.js';

export function OrganizationLogo({ organization }: { organization: FlowOrganization }) {
  const url = organization.organization_logo_url;
  return (
    <span className="gh-org-logo" aria-hidden="true">
      {url ? <img src={url} alt="" /> : Array.from(organization.organization_name)[0]}
    </span>
  );
}
