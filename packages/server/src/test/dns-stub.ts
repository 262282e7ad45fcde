/**
 * A DNS server on loopback for the domains tests (dns2): it answers TXT questions from a table,
 * NXDOMAIN for names it does not know, late for names given a delay, and never for silent ones.
 */
import dns2 from 'dns2';

/** The running stub; change its tables between requests. */
export interface DnsStub {
  /** `127.0.0.1:port`, for `dnsServers`. */
  server: string;
  /** TXT values by name (lower-case, no trailing dot). */
  txt: Map<string, string[]>;
  /** Milliseconds to wait before answering a name. */
  delays: Map<string, number>;
  /** Names never answered. */
  silent: Set<string>;
  /** Questions received, by name. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * Starts the stub on a free loopback port.
 *
 * @example
 * const dns = await startDnsStub();
 * dns.txt.set('_gatehouse-verification.acme.test', ['gatehouse-verification=t0k']);
 */
export async function startDnsStub(): Promise<DnsStub> {
  const stub = {
    txt: new Map<string, string[]>(),
    delays: new Map<string, number>(),
    silent: new Set<string>(),
    asked: [] as string[],
  };
  const timers = new Set<NodeJS.Timeout>();
  const server = dns2.createUDPServer((request, send) => {
    const response = dns2.Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
    stub.asked.push(name);
    if (stub.silent.has(name)) return;
    const values = stub.txt.get(name);
    if (values === undefined) response.header.rcode = dns2.Packet.RCODE.NXDOMAIN;
    for (const value of values ?? []) {
      // dns2 encodes plain records; its type also names the encoder it adds.
      const answer: Omit<dns2.Packet.Resource, 'toBuffer'> = {
        name: question?.name ?? name,
        type: dns2.Packet.TYPE.TXT,
        class: dns2.Packet.CLASS.IN,
        ttl: 60,
        data: value,
      };
      response.answers.push(answer as dns2.Packet.Resource);
    }
    const answer = () => void send(response).catch(() => undefined);
    const delay = stub.delays.get(name) ?? 0;
    if (delay === 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, delay);
    timers.add(timer);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    ...stub,
    server: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
      }),
  };
}
