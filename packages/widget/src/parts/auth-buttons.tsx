/** The OAuth and SSO buttons of the Main screen. */
import type { ComponentType } from 'react';
import type { OAuthProvider } from '../config.js';
import { useMessages } from '../messages/use-messages.js';
import type { MainButton } from '../machine/selectors.js';
import { useWidget } from '../widget-context.js';
import { Button } from './button.js';
import { GoogleIcon, KeyIcon, MicrosoftIcon } from './icons.js';

const PROVIDERS: Record<
  OAuthProvider,
  { label: 'main.oauth.google' | 'main.oauth.microsoft'; Icon: ComponentType }
> = {
  google: { label: 'main.oauth.google', Icon: GoogleIcon },
  microsoft: { label: 'main.oauth.microsoft', Icon: MicrosoftIcon },
};

export function AuthButtons({ buttons }: { buttons: MainButton[] }) {
  const format = useMessages();
  const { actions } = useWidget();
  return (
    <div className="gh-button-list">
      {buttons.map((button) => {
        if (button.kind === 'oauth') {
          const { label, Icon } = PROVIDERS[button.provider.type];
          return (
            <Button
              key={`oauth-${button.provider.type}`}
              variant="secondary"
              icon={<Icon />}
              onClick={() => actions.startOAuth(button.provider)}
            >
              {format(label)}
            </Button>
          );
        }
        const { connection_id, display_name } = button.connection;
        return (
          <Button
            key={`sso-${connection_id}`}
            variant="secondary"
            icon={<KeyIcon />}
            onClick={() => actions.startSso(connection_id)}
          >
            {format('main.sso', { displayName: display_name })}
          </Button>
        );
      })}
    </div>
  );
}
