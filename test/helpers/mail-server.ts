/**
 * A real SMTP server on 127.0.0.1 (smtp-server), for tests that send mail: it receives what
 * nodemailer sends over the wire, and each message is read back with mailparser as a mail
 * client would, so a test checks the message as it arrived, not as it was handed to a library.
 *
 * Plain SMTP without STARTTLS unless asked: smtp-server's built-in certificate is one a client
 * checking certificates (as pos-sync does) rightly refuses; loopback traffic needs no TLS.
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
  /** Offer STARTTLS, with smtp-server's built-in certificate, which no client that checks
   * certificates accepts (it is self-signed for another name): a server with a bad certificate. */
  offerStartTls?: boolean;
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
  const server = new SMTPServer({
    logger: false,
    disabledCommands: [...(options.offerStartTls ? [] : ["STARTTLS"]), ...(users ? [] : ["AUTH"])],
    authOptional: users === undefined,
    allowInsecureAuth: true,
    // A test's server has no name to look up for its client.
    disableReverseLookup: true,
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
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address)) {
        callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          envelopes.push({
            from: addressOf(session.envelope.mailFrom),
            to: session.envelope.rcptTo.map((r) => r.address),
            ...(typeof session.user === "string" ? { user: session.user } : {}),
          });
          callback();
          const waiter = waiting.shift();
          if (waiter) waiter(received[taken++]!);
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
    next: () =>
      taken < received.length
        ? Promise.resolve(received[taken++]!)
        : new Promise<ParsedMail>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
