// The hashes file of `gatehouse import`: JSON lines and CSV read into passwords/migrate bodies,
// each bad line refused with its number and reason while the others still count.
import { describe, expect, it } from 'vitest';
import { parseHashFile } from './import-hashes.js';

const BCRYPT = `$2b$04$${'a'.repeat(53)}`;

describe('parseHashFile', () => {
  it('reads JSON lines, with the config under its own name or as config', () => {
    const file = parseHashFile(
      [
        JSON.stringify({
          email: 'ada@acme.test',
          organization_id: 'organization-test-1',
          hash: BCRYPT,
          hash_type: 'bcrypt',
        }),
        '',
        JSON.stringify({
          email_address: 'bo@acme.test',
          organization: 'acme',
          hash: 'c2FsdA',
          hash_type: 'scrypt',
          config: {
            salt: 'c2FsdA',
            n_parameter: 16384,
            r_parameter: 8,
            p_parameter: 1,
            key_length: 32,
          },
        }),
        JSON.stringify({
          email: 'cy@acme.test',
          organization: 'acme',
          hash: 'ab',
          hash_type: 'md_5',
          md_5_config: { prepend_salt: 'x' },
        }),
      ].join('\n'),
    );
    expect(file.refused).toEqual([]);
    expect(file.lines).toEqual([
      {
        line: 1,
        organization: 'organization-test-1',
        input: { email_address: 'ada@acme.test', hash: BCRYPT, hash_type: 'bcrypt' },
      },
      {
        line: 3,
        organization: 'acme',
        input: {
          email_address: 'bo@acme.test',
          hash: 'c2FsdA',
          hash_type: 'scrypt',
          scrypt_config: {
            salt: 'c2FsdA',
            n_parameter: 16384,
            r_parameter: 8,
            p_parameter: 1,
            key_length: 32,
          },
        },
      },
      {
        line: 4,
        organization: 'acme',
        input: {
          email_address: 'cy@acme.test',
          hash: 'ab',
          hash_type: 'md_5',
          md_5_config: { prepend_salt: 'x' },
        },
      },
    ]);
  });

  it('reads CSV with a header, quoted fields and a JSON config', () => {
    const file = parseHashFile(
      [
        'email,organization,hash,hash_type,config',
        `ada@acme.test,acme,${BCRYPT},bcrypt,`,
        'bo@acme.test,acme,"ab,cd",pbkdf_2,"{""salt"":""c2FsdA"",""iteration_amount"":1000,""key_length"":32}"',
      ].join('\r\n'),
    );
    expect(file.refused).toEqual([]);
    expect(file.lines.map((l) => [l.line, l.input])).toEqual([
      [2, { email_address: 'ada@acme.test', hash: BCRYPT, hash_type: 'bcrypt' }],
      [
        3,
        {
          email_address: 'bo@acme.test',
          hash: 'ab,cd',
          hash_type: 'pbkdf_2',
          pbkdf_2_config: { salt: 'c2FsdA', iteration_amount: 1000, key_length: 32 },
        },
      ],
    ]);
  });

  it('refuses each bad line with its number and reason', () => {
    const csv = parseHashFile(
      [
        'email,organization,hash,hash_type,config',
        `ada@acme.test,,${BCRYPT},bcrypt,`,
        `bo@acme.test,acme,${BCRYPT},bcrypt,{not json}`,
        `cy@acme.test,acme,${BCRYPT},bcrypt,"{""salt"":""x""}"`,
        `dee@acme.test,acme,${BCRYPT},sha_256,`,
        'eve@acme.test,acme,"unbalanced,bcrypt,',
        'fay@acme.test,acme',
        `not-an-address,acme,${BCRYPT},bcrypt,`,
      ].join('\n'),
    );
    expect(csv.lines).toEqual([]);
    expect(csv.refused.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(csv.refused.slice(0, 3).map((r) => r.reason)).toEqual([
      'organization is missing',
      'config is not JSON',
      'hash_type bcrypt takes no config',
    ]);
    expect(csv.refused[3]?.reason).toMatch(/^hash_type: /);
    expect(csv.refused[4]?.reason).toBe('unbalanced quotes');
    expect(csv.refused[5]?.reason).toBe('2 fields; the header has 5');
    expect(csv.refused[6]?.reason).toMatch(/^email_address: /);
    expect(parseHashFile('{"email": 1}\nnot json').refused).toEqual([
      { line: 1, reason: 'organization is missing' },
      { line: 2, reason: 'not a JSON object' },
    ]);
  });
});
