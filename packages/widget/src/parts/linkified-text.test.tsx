import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkifiedText } from './linkified-text.js';

afterEach(cleanup);

describe('LinkifiedText', () => {
  it('turns web addresses into links and leaves the rest as text', () => {
    const { container } = render(
      <p>
        <LinkifiedText text="Allow your origin at https://console.example.com/origins, then retry." />
      </p>,
    );
    const link = screen.getByRole<HTMLAnchorElement>('link');
    expect(link.href).toBe('https://console.example.com/origins');
    expect(link.rel).toBe('noopener noreferrer');
    expect(container.textContent).toBe(
      'Allow your origin at https://console.example.com/origins, then retry.',
    );
  });

  it('links nothing in plain text or in other schemes', () => {
    render(
      <p>
        <LinkifiedText text="Nothing here, not even javascript:alert(1)." />
      </p>,
    );
    expect(screen.queryByRole('link')).toBeNull();
  });
});
