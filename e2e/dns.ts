// A DNS server on loopback for the browser tests: it answers TXT questions from a table that the
// test fills with what the portal showed, and NXDOMAIN for any other name (RFC 1035 §4.1).
import { createSocket } from 'node:dgram';

export interface TxtServer {
  /** `127.0.0.1:port`, for the server's `dnsServers`. */
  address: string;
  /** TXT values by name (lower-case, no trailing dot). */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

/** The question's name and where the question ends, or null for a packet that is not one. */
function readQuestion(query: Buffer): { name: string; end: number } | null {
  const labels: string[] = [];
  let at = 12;
  while (at < query.length) {
    const size = query[at]!;
    if (size === 0) return { name: labels.join('.').toLowerCase(), end: at + 5 };
    // No compression in a question of one name; anything else is not ours to answer.
    if (size > 63) return null;
    labels.push(query.toString('latin1', at + 1, at + 1 + size));
    at += 1 + size;
  }
  return null;
}

/** The answer to `query`: its TXT records, or NXDOMAIN when the table has none for the name. */
function answer(query: Buffer, txt: ReadonlyMap<string, string[]>): Buffer | null {
  if (query.length < 12) return null;
  const question = readQuestion(query);
  if (!question || question.end > query.length) return null;
  const values = txt.get(question.name);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // QR, RD, RA; RCODE 3 (NXDOMAIN) without records.
  header.writeUInt16BE(0x8180 | (values ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values?.length ?? 0, 6);
  const records = (values ?? []).map((value) => {
    const text = Buffer.from(value, 'utf8');
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the question's name
    record.writeUInt16BE(16, 2); // TXT
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(text.length + 1, 10);
    return Buffer.concat([record, Buffer.from([text.length]), text]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...records]);
}

/**
 * Starts the server on a free loopback port.
 *
 * @example
 * const dns = await startTxtServer();
 * dns.txt.set('_gatehouse-verification.acme.test', ['gatehouse-verification=t0k']);
 */
export async function startTxtServer(): Promise<TxtServer> {
  const txt = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const reply = answer(query, txt);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
