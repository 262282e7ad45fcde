/** Discovery: the organizations of the e-mail, or the empty states, and creating one. */
import type { DiscoveredOrganization } from '@gatehouse/protocol';
import { useMessages } from '../messages/use-messages.js';
import { canCreateOrganization, discoveryRowAction } from '../machine/selectors.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { ArrowIcon } from '../parts/icons.js';
import { OrganizationLogo } from '../parts/organization-logo.js';
import { useWidget } from '../widget-context.js';

function RowAction({ discovered }: { discovered: DiscoveredOrganization }) {
  const format = useMessages();
  const action = discoveryRowAction(discovered);
  if (action === 'join') return <span className="gh-org-action">{format('discovery.join')}</span>;
  if (action === 'acceptInvite') {
    return <span className="gh-org-action">{format('discovery.acceptInvite')}</span>;
  }
  return (
    <span className="gh-org-action">
      <ArrowIcon />
    </span>
  );
}

function EmptyState({ canCreate, email }: { canCreate: boolean; email: string }) {
  const format = useMessages();
  if (canCreate) {
    return (
      <>
        <Heading>{format('discovery.emptyCreate.heading')}</Heading>
        <p className="gh-text">{format('discovery.emptyCreate.body', { email })}</p>
      </>
    );
  }
  return (
    <>
      <Heading>{format('discovery.emptyNoCreate.heading', { email })}</Heading>
      <p className="gh-text">{format('discovery.emptyNoCreate.body')}</p>
    </>
  );
}

export function Discovery() {
  const format = useMessages();
  const { state, config, actions } = useWidget();
  const { email, discoveredOrganizations } = state.discovery;
  const canCreate = canCreateOrganization(state, config);

  return (
    <div className="gh-screen">
      {discoveredOrganizations.length === 0 ? (
        <EmptyState canCreate={canCreate} email={email} />
      ) : (
        <>
          <Heading>{format('discovery.heading')}</Heading>
          <ul className="gh-org-list">
            {discoveredOrganizations.map((discovered) => (
              <li key={discovered.organization.organization_id}>
                <button
                  type="button"
                  className="gh-org-row"
                  onClick={() => actions.chooseOrganization(discovered)}
                >
                  <OrganizationLogo organization={discovered.organization} />
                  <span className="gh-org-name">{discovered.organization.organization_name}</span>
                  <RowAction discovered={discovered} />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {canCreate && (
        <Button
          variant={discoveredOrganizations.length === 0 ? 'primary' : 'secondary'}
          onClick={actions.createOrganization}
        >
          {format('discovery.create')}
        </Button>
      )}
      <Button variant="text" onClick={actions.returnToMain}>
        {format('discovery.tryDifferentEmail')}
      </Button>
    </div>
  );
}
