// The 'powered by' line (spec §2): shown when bootstrap says so, and only then.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

const config: WidgetConfig = { products: ['emailMagicLinks'], authFlowType: 'discovery' };

describe('the watermark', () => {
  it('shows when bootstrap asks for it', async () => {
    renderWidget(config, { prepare: (c) => c.setBootstrap({ displayWatermark: true }) });
    await screen.findByRole('heading', { name: 'Sign up or log in' });
    expect(screen.getByText('Powered by Gatehouse')).toBeTruthy();
  });

  it('is absent otherwise', async () => {
    renderWidget(config, { prepare: (c) => c.setBootstrap({ displayWatermark: false }) });
    await screen.findByRole('heading', { name: 'Sign up or log in' });
    expect(screen.queryByText('Powered by Gatehouse')).toBeNull();
  });
});
