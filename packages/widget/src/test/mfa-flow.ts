/** Brings a rendered widget to MFA: a password login in Acme whose answer needs a second factor. */
import { fireEvent, screen } from '@testing-library/react';
import type { MfaPendingResult } from '@gatehouse/protocol';
import type { WidgetConfig } from '../config.js';
import { ACK, type FakeClient, organization } from '@gatehouse/testing';
import { renderWidget, type RenderOptions, type RenderedWidget } from './render-widget.js';

/** Renders the widget and signs in with a password; resolves once the login has answered. */
export async function renderAtMfa(
  result: MfaPendingResult,
  options: RenderOptions & { config?: Partial<WidgetConfig> } = {},
): Promise<RenderedWidget> {
  const config: WidgetConfig = {
    products: ['passwords'],
    authFlowType: 'organization',
    ...options.config,
  };
  const rendered = renderWidget(config, {
    ...options,
    prepare: (client: FakeClient) => {
      client.answer('organization.getBySlug', async () => ({
        ...ACK,
        organization: organization(),
      }));
      client.answer('passwords.authenticate', async () => result);
      options.prepare?.(client);
    },
  });
  fireEvent.input(await screen.findByLabelText('Email'), { target: { value: 'ada@acme.test' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  return rendered;
}
