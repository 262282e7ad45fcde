/** The style configuration of the widget and the CSS custom properties it becomes. */
import {
  BUTTON_HEIGHT_PX,
  INPUT_HEIGHT_PX,
  OTP_BOX_PX,
  OTP_GAP_PX,
  WIDGET_DEFAULT_WIDTH_PX,
} from '@gatehouse/protocol';

/** The look of one kind of button. */
export interface ButtonStyle {
  backgroundColor?: string;
  textColor?: string;
  borderColor?: string;
  borderRadius?: string;
}

/**
 * Theming of the widget: colours, font, logo and container width. Everything is optional; the
 * default theme is a white card with dark text and a dark primary button.
 *
 * @example
 * const styles: WidgetStyles = {
 *   fontFamily: 'Inter, sans-serif',
 *   container: { width: 440 },
 *   buttons: { primary: { backgroundColor: '#4b2dcc' } },
 *   logo: { logoImageUrl: 'https://app.example.com/logo.svg' },
 * };
 */
export interface WidgetStyles {
  fontFamily?: string;
  container?: {
    backgroundColor?: string;
    borderColor?: string;
    borderRadius?: string;
    /** A number is in pixels; default 400. */
    width?: number | string;
  };
  colors?: {
    /** Headings and body text. */
    primary?: string;
    /** Secondary text and the divider. */
    secondary?: string;
    success?: string;
    error?: string;
  };
  buttons?: { primary?: ButtonStyle; secondary?: ButtonStyle };
  inputs?: {
    backgroundColor?: string;
    borderColor?: string;
    borderRadius?: string;
    placeholderColor?: string;
    textColor?: string;
  };
  /** The application's logo, shown above the heading. */
  logo?: { logoImageUrl?: string };
}

const px = (value: number) => `${value}px`;

/** The default theme; its colours keep body text and buttons above WCAG AA contrast on white. */
const DEFAULTS = {
  '--gh-width': px(WIDGET_DEFAULT_WIDTH_PX),
  '--gh-font': 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
  '--gh-bg': '#ffffff',
  '--gh-border': '#d5dde2',
  '--gh-radius': '8px',
  '--gh-text': '#19303d',
  '--gh-text-secondary': '#4b5f6b',
  '--gh-success': '#0c5a56',
  '--gh-error': '#8b1214',
  '--gh-focus': '#1f6feb',
  '--gh-primary-bg': '#19303d',
  '--gh-primary-text': '#ffffff',
  '--gh-primary-border': '#19303d',
  '--gh-primary-radius': '4px',
  '--gh-secondary-bg': '#ffffff',
  '--gh-secondary-text': '#19303d',
  '--gh-secondary-border': '#19303d',
  '--gh-secondary-radius': '4px',
  '--gh-input-bg': '#ffffff',
  '--gh-input-border': '#8296a1',
  '--gh-input-radius': '4px',
  '--gh-input-placeholder': '#657781',
  '--gh-input-text': '#19303d',
  '--gh-button-height': px(BUTTON_HEIGHT_PX),
  '--gh-input-height': px(INPUT_HEIGHT_PX),
  '--gh-otp-box': px(OTP_BOX_PX),
  '--gh-otp-gap': px(OTP_GAP_PX),
};

/** A CSS custom property of the theme. */
export type ThemeVariable = keyof typeof DEFAULTS;

/** The custom properties for a style configuration: the defaults with the given values on top. */
export function themeVariables(styles: WidgetStyles = {}): Record<ThemeVariable, string> {
  const { container = {}, colors = {}, buttons = {}, inputs = {} } = styles;
  const primary = buttons.primary ?? {};
  const secondary = buttons.secondary ?? {};
  const width = typeof container.width === 'number' ? px(container.width) : container.width;
  const given: Partial<Record<ThemeVariable, string | undefined>> = {
    '--gh-width': width,
    '--gh-font': styles.fontFamily,
    '--gh-bg': container.backgroundColor,
    '--gh-border': container.borderColor,
    '--gh-radius': container.borderRadius,
    '--gh-text': colors.primary,
    '--gh-text-secondary': colors.secondary,
    '--gh-success': colors.success,
    '--gh-error': colors.error,
    '--gh-primary-bg': primary.backgroundColor,
    '--gh-primary-text': primary.textColor,
    '--gh-primary-border': primary.borderColor ?? primary.backgroundColor,
    '--gh-primary-radius': primary.borderRadius,
    '--gh-secondary-bg': secondary.backgroundColor,
    '--gh-secondary-text': secondary.textColor,
    '--gh-secondary-border': secondary.borderColor,
    '--gh-secondary-radius': secondary.borderRadius,
    '--gh-input-bg': inputs.backgroundColor,
    '--gh-input-border': inputs.borderColor,
    '--gh-input-radius': inputs.borderRadius,
    '--gh-input-placeholder': inputs.placeholderColor,
    '--gh-input-text': inputs.textColor,
  };
  const variables = { ...DEFAULTS };
  for (const [name, value] of Object.entries(given) as [ThemeVariable, string | undefined][]) {
    if (value) variables[name] = value;
  }
  return variables;
}
