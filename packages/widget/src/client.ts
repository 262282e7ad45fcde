/** The client types the widget is written against, imported in one place. */
export type { BootstrapConfig, GatehouseClient, SessionState } from '@gatehouse/client';
