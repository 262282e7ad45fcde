/** A throwaway PostgreSQL cluster (see postgres-cluster.mjs). */
export function startPostgresCluster(options?: {
  durable?: boolean;
}): Promise<{ url: string; data: string; stop: () => void }>;
