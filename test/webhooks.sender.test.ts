import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSender, keptText } from '../src/modules/webhooks/sender.js';

// The sender against raw TCP receivers, so each test decides what happens on the wire: kept
// connections, a receiver closing one just as it is reused, a reset on a new connection.

interface RawReceiver {
  url: string;
  /** Connections accepted, in order. */
  connections: number;
  /** Requests received (each connection's request count, by connection). */
  requestsPerConnection: number[];
  close(): Promise<void>;
}

type OnRequest = (socket: net.Socket, connection: number, requestOnConnection: number) => void;

const NO_CONTENT = 'HTTP/1.1 204 No Content\r\nconnection: keep-alive\r\nkeep-alive: timeout=5\r\n\r\n';

const open: RawReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

/** A receiver that calls `onRequest` each time a whole request (headers and body) has arrived. */
async function rawReceiver(onRequest: OnRequest): Promise<RawReceiver> {
  const sockets = new Set<net.Socket>();
  const state = { connections: 0, requestsPerConnection: [] as number[] };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const connection = state.connections;
    state.connections += 1;
    state.requestsPerConnection.push(0);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const n = state.requestsPerConnection[connection];
        state.requestsPerConnection[connection] = n + 1;
        onRequest(socket, connection, n);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: RawReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get connections() {
      return state.connections;
    },
    get requestsPerConnection() {
      return state.requestsPerConnection;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(receiver);
  return receiver;
}

const send = () => createSender({ allowPrivateNetworks: true });
const body = JSON.stringify({ type: 'booking.created' });

describe('the webhook sender', () => {
  it('keeps the connection to a receiver for the next delivery', async () => {
    const receiver = await rawReceiver((socket) => socket.write(NO_CONTENT));
    const sender = send();
    for (let i = 0; i < 3; i += 1) expect((await sender(receiver.url, {}, body)).statusCode).toBe(204);
    expect(receiver.connections).toBe(1);
    expect(receiver.requestsPerConnection).toEqual([3]);
  });

  it('sends once more, on a new connection, when a kept connection is closed as it is reused', async () => {
    // The first connection answers its first request and is then closed by the receiver as the
    // second request arrives on it (an idle timeout racing the reuse): a reset, no response.
    const receiver = await rawReceiver((socket, connection, n) => {
      if (connection === 0 && n === 1) socket.resetAndDestroy();
      else socket.write(NO_CONTENT);
    });
    const sender = send();
    expect((await sender(receiver.url, {}, body)).statusCode).toBe(204);
    const second = await sender(receiver.url, {}, body);
    expect(second).toMatchObject({ statusCode: 204, error: null });
    expect(receiver.connections).toBe(2);
    expect(receiver.requestsPerConnection).toEqual([2, 1]);
  });

  it('does not send again after a reset on a new connection, nor after a response', async () => {
    const resetting = await rawReceiver((socket) => socket.resetAndDestroy());
    const sender = send();
    const reset = await sender(resetting.url, {}, body);
    expect(reset).toMatchObject({ statusCode: null, error: 'connection reset by the receiver' });
    expect(resetting.requestsPerConnection).toEqual([1]);

    // A kept connection whose response is cut short after its status line: the receiver saw the
    // request and answered, so it is not sent again.
    const cut = await rawReceiver((socket, connection, n) => {
      if (n === 0) socket.write(NO_CONTENT);
      else socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 100\r\n\r\npart', () => socket.destroy());
    });
    expect((await sender(cut.url, {}, body)).statusCode).toBe(204);
    expect(await sender(cut.url, {}, body)).toMatchObject({ statusCode: 500, error: 'receiver answered 500' });
    expect(cut.connections).toBe(1);
  });
});

describe('keptText', () => {
  it.each([
    ['plain text', Buffer.from('ok'), 'ok'],
    ['a NUL, which PostgreSQL text cannot hold', Buffer.from('ok\u0000then'), 'ok\uFFFDthen'],
    ['bytes that are not UTF-8', Buffer.from([0x6f, 0xff, 0x6b]), 'o\uFFFDk'],
    ['a character cut at the end', Buffer.from('é').subarray(0, 1), ''],
    ['a NUL at the end', Buffer.from('ok\u0000'), 'ok\uFFFD'],
  ])('%s', (_name, bytes, expected) => {
    expect(keptText(bytes)).toBe(expected);
  });
});
