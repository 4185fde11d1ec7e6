/**
 * A real SMTP server on 127.0.0.1 (smtp-server), for tests that send mail: it receives what
 * nodemailer sends over the wire, and each message is read back with mailparser as a mail
 * client would, so a test checks the message as it arrived, not as it was handed to a library.
 *
 * Plain SMTP without STARTTLS unless asked: with smtp-server's built-in certificate (self-signed
 * for another name) or test/fixtures/smtp-tls's (self-signed for mail.example and 127.0.0.1).
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

export interface MailServerOptions {
  /** Users and their passwords: with any, the server requires a login (over plain text, which
   * it allows on loopback); without, it offers none. */
  users?: Record<string, string>;
  /** A recipient for which this returns true is refused at RCPT TO with 550. */
  rejectRecipient?: (address: string) => boolean;
  /** A recipient for which this returns true is deferred at RCPT TO with 450, a server busy for
   * now: asked at each RCPT, so that a test may let it through later. */
  deferRecipient?: (address: string) => boolean;
  /** Offer STARTTLS, with smtp-server's built-in certificate, which no client that checks
   * certificates accepts (it is self-signed for another name), or with `certificate`. */
  offerStartTls?: boolean;
  /** The key and certificate (PEM) STARTTLS uses; setting it offers STARTTLS. */
  certificate?: { key: string; cert: string };
  /** Wait this long before answering the connection, the sender, each recipient and the
   * message's end: a server that is slow at every step. */
  delayMs?: number;
  /** Read the message, then never answer its end: the server took it, and says nothing. */
  hangAfterData?: boolean;
  /** Listen on this port (one a test found closed, to bring an unreachable server up); any free
   * one otherwise. */
  port?: number;
}

export interface Envelope {
  /** MAIL FROM. */
  from: string;
  /** Every RCPT TO the server accepted. */
  to: string[];
  /** The user that logged in, if any. */
  user?: string;
  /** The message came over TLS (STARTTLS). */
  secure: boolean;
}

export interface MailServer {
  /** smtp://127.0.0.1:port, without credentials. */
  url: string;
  port: number;
  /** smtp://user:password@127.0.0.1:port, each percent-encoded. */
  urlWith(user: string, password: string): string;
  /** Every message received, in order, parsed. */
  received: ParsedMail[];
  /** The envelope of each message of `received`, at the same index. */
  envelopes: Envelope[];
  /** The first received message no earlier call returned, waiting for it if need be. */
  next(): Promise<ParsedMail>;
  /** Every login attempt, right or wrong, by user name. */
  logins: string[];
  /** Resolves when the server has read a whole message, whether or not it answers it. */
  dataReceived: Promise<void>;
  close(): Promise<void>;
}

export async function startMailServer(options: MailServerOptions = {}): Promise<MailServer> {
  const users = options.users;
  const received: ParsedMail[] = [];
  const envelopes: Envelope[] = [];
  const logins: string[] = [];
  const waiting: ((mail: ParsedMail) => void)[] = [];
  let taken = 0;

  const addressOf = (address: SMTPServerAddress | false) => (address ? address.address : "");
  let dataRead: () => void = () => {};
  const dataReceived = new Promise<void>((resolve) => {
    dataRead = resolve;
  });
  const startTls = options.offerStartTls || options.certificate !== undefined;
  /** Runs `answer` after the server's delay, if it has one. */
  const later = (answer: () => void) => {
    if (options.delayMs === undefined) answer();
    else setTimeout(answer, options.delayMs);
  };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: [...(startTls ? [] : ["STARTTLS"]), ...(users ? [] : ["AUTH"])],
    ...(options.certificate ?? {}),
    authOptional: users === undefined,
    allowInsecureAuth: true,
    // A test's server has no name to look up for its client.
    disableReverseLookup: true,
    onConnect(_session, callback) {
      later(() => callback());
    },
    onAuth(auth, _session, callback) {
      const user = auth.username ?? "";
      logins.push(user);
      if (users !== undefined && Object.hasOwn(users, user) && users[user] === auth.password) {
        callback(null, { user });
      } else {
        // smtp-server answers 535 (credentials invalid), as real servers do.
        callback(new Error("Authentication credentials invalid"));
      }
    },
    onMailFrom(_address, _session, callback) {
      later(() => callback());
    },
    onRcptTo(address, _session, callback) {
      later(() => {
        if (options.rejectRecipient?.(address.address)) {
          callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
        } else if (options.deferRecipient?.(address.address)) {
          callback(
            Object.assign(new Error("4.2.1 Mailbox busy, try later"), { responseCode: 450 }),
          );
        } else {
          callback();
        }
      });
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          dataRead();
          if (options.hangAfterData) return;
          later(() => {
            received.push(mail);
            envelopes.push({
              from: addressOf(session.envelope.mailFrom),
              to: session.envelope.rcptTo.map((r) => r.address),
              ...(typeof session.user === "string" ? { user: session.user } : {}),
              secure: session.secure,
            });
            callback();
            const waiter = waiting.shift();
            if (waiter) waiter(received[taken++]!);
          });
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const url = `smtp://127.0.0.1:${port}`;

  return {
    url,
    port,
    urlWith: (user, password) =>
      `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    received,
    envelopes,
    logins,
    dataReceived,
    next: () =>
      taken < received.length
        ? Promise.resolve(received[taken++]!)
        : new Promise<ParsedMail>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
