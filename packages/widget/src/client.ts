/** The client types the widget is written against, imported in one place. */
export type {
  BootstrapConfig,
  GatehouseClient,
  GoogleOneTapStartResult,
  PasswordStrengthResult,
  SessionState,
  TotpCreateResult,
} from '@gatehouse/client';
