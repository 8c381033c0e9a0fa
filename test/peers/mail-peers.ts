import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

// Real peers for the notification tests: an SMTP server (smtp-server) that parses what it receives
// with mailparser, and an HTTP server speaking the shape of Twilio's Messages API. Neither is a mock
// of the library Portier uses: nodemailer and fetch talk to them over TCP.

export type SmtpMode = 'accept' | 'reject' | 'defer' | 'drop' | 'slow';

export interface ReceivedMail {
  parsed: ParsedMail;
  raw: string;
  /** The user the client authenticated as, and the password it sent. */
  auth: { username?: string; password?: string } | undefined;
}

export interface SmtpPeer {
  port: number;
  mails: ReceivedMail[];
  /** What the server does with the next message's DATA: take it, 554, 451 (try later), drop the connection, or never answer. */
  mode: SmtpMode;
  /** In 'accept' mode: after taking this many mails in all, answer no more (as 'slow'); null: no limit. */
  acceptLimit: number | null;
  /** Messages whose DATA is held unanswered right now (their connections still open). */
  held: number;
  close(): Promise<void>;
  /** Resolves when at least `n` mails have arrived. */
  waitFor(n: number, limitMs?: number): Promise<ReceivedMail[]>;
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const auths = new WeakMap<SMTPServerSession, { username?: string; password?: string }>();
  const heldSessions = new Set<string>();
  let accepting = 0;
  const peer: SmtpPeer = {
    port: 0,
    mails,
    mode: 'accept',
    acceptLimit: null,
    held: 0,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async waitFor(n, limitMs = 120_000) {
      const deadline = Date.now() + limitMs;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return mails;
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, session, callback) {
      auths.set(session, { username: auth.username, password: auth.password ?? undefined });
      callback(null, { user: auth.username });
    },
    onClose(session) {
      if (heldSessions.delete(session.id)) peer.held -= 1;
    },
    onData(stream, session, callback) {
      const mode =
        peer.mode === 'accept' && peer.acceptLimit !== null && mails.length + accepting >= peer.acceptLimit
          ? 'slow'
          : peer.mode;
      if (mode === 'accept') accepting += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (mode === 'reject' || mode === 'defer') {
          const error = new Error(
            mode === 'reject' ? 'Mailbox unavailable' : 'Requested action aborted: try again later',
          ) as Error & { responseCode: number };
          error.responseCode = mode === 'reject' ? 554 : 451;
          callback(error);
          return;
        }
        if (mode === 'drop') {
          // The connection goes away before the server accepts: the message is not taken.
          for (const connection of (server as unknown as { connections: Set<{ _socket: { destroy(): void } }> })
            .connections ?? [])
            connection._socket.destroy();
          return;
        }
        if (mode === 'slow') {
          // Never answers: the client's timeout (or its death) ends the attempt, and nothing is taken.
          heldSessions.add(session.id);
          peer.held += 1;
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw, { skipImageLinks: true }).then((parsed) => {
          accepting -= 1;
          mails.push({ parsed, raw, auth: auths.get(session) });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.server.address() as AddressInfo).port;
  return peer;
}

export interface SmsRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

export interface SmsPeer {
  url: string;
  requests: SmsRequest[];
  /** The status to answer (201 as Twilio does). */
  status: number;
  /** Never answer: the request is held (not recorded) until the client gives up or the peer closes. */
  hang: boolean;
  /** Requests received while hanging. */
  hung: number;
  close(): Promise<void>;
}

export async function startSmsPeer(): Promise<SmsPeer> {
  const requests: SmsRequest[] = [];
  const peer: SmsPeer = { url: '', requests, status: 201, hang: false, hung: 0, close: async () => undefined };
  const server: HttpServer = createHttpServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (peer.hang) {
        peer.hung += 1;
        return;
      }
      const status = peer.status;
      if (status < 300)
        requests.push({
          path: req.url ?? '',
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          form: new URLSearchParams(body),
        });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status < 300 ? { sid: `SM${requests.length}`, status: 'queued' } : { code: 20003, message: 'Authenticate' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return peer;
}
