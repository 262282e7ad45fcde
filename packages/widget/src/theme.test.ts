/** The default theme meets WCAG AA contrast (docs/widget.md §13), its ratios computed here. */
import { describe, expect, it } from 'vitest';
import { themeVariables, type ThemeVariable } from './theme.js';

/** WCAG 2.1 relative luminance of a `#rrggbb` colour. */
function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const channel = parseInt(part, 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1 contrast ratio of two colours, from 1 to 21, whichever is lighter. */
function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

const theme = themeVariables();

/** Text: 4.5:1 (body text, placeholders, error and success messages, button labels). */
const TEXT: [ThemeVariable, ThemeVariable][] = [
  ['--gh-text', '--gh-bg'],
  ['--gh-text-secondary', '--gh-bg'],
  ['--gh-success', '--gh-bg'],
  ['--gh-error', '--gh-bg'],
  ['--gh-primary-text', '--gh-primary-bg'],
  ['--gh-secondary-text', '--gh-secondary-bg'],
  ['--gh-input-text', '--gh-input-bg'],
  ['--gh-input-placeholder', '--gh-input-bg'],
  ['--gh-text', '--gh-secondary-bg'],
  ['--gh-text-secondary', '--gh-secondary-bg'],
];

/** Components and their states: 3:1 (field and button borders, focus ring, invalid fields). */
const NON_TEXT: [ThemeVariable, ThemeVariable][] = [
  ['--gh-input-border', '--gh-input-bg'],
  ['--gh-input-border', '--gh-bg'],
  ['--gh-error', '--gh-input-bg'],
  ['--gh-focus', '--gh-bg'],
  ['--gh-primary-bg', '--gh-bg'],
  ['--gh-secondary-border', '--gh-bg'],
  ['--gh-success', '--gh-bg'],
];

describe('relativeLuminance and contrastRatio', () => {
  it('match the WCAG reference values', () => {
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(relativeLuminance('#000000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The lightest grey that passes AA for text on white.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });
});

describe('the default theme', () => {
  it.each(TEXT)('text %s on %s reaches 4.5:1', (foreground, background) => {
    expect(contrastRatio(theme[foreground], theme[background])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(NON_TEXT)('%s against %s reaches 3:1', (foreground, background) => {
    expect(contrastRatio(theme[foreground], theme[background])).toBeGreaterThanOrEqual(3);
  });
});
