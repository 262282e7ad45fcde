// The phone-parsing page of docs/protocol.md §12, framed by an app on another origin as the
// published UI frames it: one answer per message over the MessageChannel it hands over.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manageDemo, useBrowserAndDemo } from './harness.js';

const env = useBrowserAndDemo();
let app: Server;
let appOrigin: string;

beforeAll(async () => {
  // An app on its own origin: a blank page that the test fills in.
  app = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><head><title>App</title></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  await manageDemo(env.demo, 'PUT', '/v1/b2b/project', { authorized_origins: [appOrigin] });
});

afterAll(async () => {
  await new Promise((resolve) => app?.close(resolve));
});

test('an authorized app frames the page and gets one answer per request', async () => {
  const page = await env.browser.newPage();
  await page.goto(appOrigin);
  const answers = await page.evaluate(async (frameUrl) => {
    const frame = document.createElement('iframe');
    frame.src = frameUrl;
    frame.hidden = true;
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve));
    document.body.append(frame);
    await loaded;
    const ask = (message: unknown) =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        frame.contentWindow?.postMessage(message, new URL(frameUrl).origin, [channel.port2]);
      });
    return [
      await ask({ method: 'parsedPhoneNumber', args: [{ phoneNumber: '4155550199' }] }),
      await ask({
        method: 'parsedPhoneNumber',
        args: [{ phoneNumber: '030 1234567', regionCode: 'DE' }],
      }),
      await ask({ method: 'parsedPhoneNumber', args: [{ phoneNumber: '12' }] }),
      await ask({ method: 'formatNumber', args: [{}] }),
    ];
  }, `${env.demo.url}/clientside-services/index.html`);
  expect(answers).toHaveLength(4);
  expect(answers[0]).toEqual({
    success: true,
    payload: { isValid: true, number: '+14155550199', national: '(415) 555-0199' },
  });
  expect(answers[1]).toEqual({
    success: true,
    payload: { isValid: true, number: '+49301234567', national: '030 1234567' },
  });
  // An invalid number still answers what to show in the input.
  expect(answers[2]).toMatchObject({ success: true, payload: { isValid: false, national: '12' } });
  expect(answers[3]).toEqual({
    success: false,
    error: { name: 'Error', message: 'unsupported method' },
  });
  await page.close();
});
