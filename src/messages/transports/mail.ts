/** The morning report and alerts by e-mail: one multipart message through an SMTP server, with
 * nodemailer; each failure a DeliveryError (transport.ts). */
import { PassThrough, pipeline } from "node:stream";
import type { NodemailerError } from "nodemailer";
import nodemailer from "nodemailer";
import { networkOutcome } from "../../api/retry-policy.js";
import { durationText } from "../../clock/durations.js";
import {
  describeSmtpUrl,
  type MailSettings,
  parseSmtpUrl,
  type SmtpServer,
} from "../../config/channel-addresses.js";
import { visible } from "../../terminal-text.js";
import { mailTlsOptions, mustUseTls } from "./mail-tls.js";
import {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DeliveryError,
  type DeliveryOptions,
  LONGEST_DELIVERY_MS,
  LONGEST_REPLY_SHOWN,
  type OutgoingMail,
} from "./transport.js";

// ---------------------------------------------------------------------------------------------
// E-mail

/** What the server said of a message it took. */
export interface MailReceipt {
  /** The Message-ID the message went out with, angle brackets included. */
  messageId: string;
  /** Recipients the server refused while it took the others: the message went to the rest and
   * is not to be sent again (it would reach them twice), but the user should hear of these. */
  rejected: readonly string[];
}

/**
 * Sends one multipart message (plain text and HTML) through the server of `settings.smtpUrl`.
 * smtps:// speaks TLS from the first byte; smtp:// upgrades with STARTTLS when the server offers
 * it (nodemailer's default), and with a password it must (mail-tls.ts says when, and which
 * certificate is trusted). `options.timeoutMs` bounds each step, not the whole message.
 * Resolves once the server took the message for at least one recipient; a server refusing all
 * of them is a DeliveryError.
 */
export async function sendMail(
  settings: MailSettings,
  mail: OutgoingMail,
  options: DeliveryOptions = {},
): Promise<MailReceipt> {
  const server = parseSmtpUrl(settings.smtpUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const transporter = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    requireTLS: mustUseTls(server),
    tls: mailTlsOptions(server, settings.ca),
    ...(server.auth === undefined ? {} : { auth: server.auth }),
    // Each wait bounded: the connection, the greeting, each answer, the name lookup.
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // The report is made here; nothing in it should make nodemailer read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  const attempt: Attempt = {
    server,
    target: describeSmtpUrl(settings.smtpUrl),
    timeoutMs,
    caConfigured: settings.ca !== undefined,
    handedOver: false,
    deadlinePassed: false,
  };
  // The message's stream ends when the connection has read all of it: from then on a silence or
  // a dropped connection leaves unknown whether the server kept it.
  transporter.use("stream", (sending, done) => {
    sending.message.processFunc((input) => {
      const output = new PassThrough();
      output.once("end", () => {
        attempt.handedOver = true;
      });
      pipeline(input, output, () => {});
      return output;
    });
    done();
  });
  // The steps are each bounded, but a server answering each in time, slowly, could chain them
  // for as long as it likes: a last resort, far beyond a slow server's pace.
  const signal = AbortSignal.timeout(LONGEST_DELIVERY_MS);
  try {
    const info = await transporter.sendMail({
      from: settings.from,
      to: [...settings.to],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }),
      signal,
    });
    return { messageId: info.messageId, rejected: info.rejected };
  } catch (error) {
    attempt.deadlinePassed = signal.aborted;
    throw mailError(error as NodemailerError, attempt);
  } finally {
    transporter.close();
  }
}

/** One message's sending, as its failure is judged. */
interface Attempt {
  server: SmtpServer;
  /** host:port, as messages show the server. */
  target: string;
  timeoutMs: number;
  /** POS_REPORT_SMTP_CA names the certificates to trust. */
  caConfigured: boolean;
  /** The server has read the whole message: whether it kept it is its reply's to say. */
  handedOver: boolean;
  /** LONGEST_DELIVERY_MS passed. */
  deadlinePassed: boolean;
}

/** The server's reply fit for a message: one line, shortened, without anything that could be a
 * credential (a server echoing what it was sent could echo the login). */
function shownReply(error: NodemailerError, server: SmtpServer): string {
  const code = error.responseCode;
  let reply = (error.response ?? "").replace(/\s+/g, " ").trim();
  if (server.auth !== undefined) {
    const { user, pass } = server.auth;
    const forms = [
      pass,
      encodeURIComponent(pass),
      Buffer.from(pass).toString("base64"),
      Buffer.from(`\u0000${user}\u0000${pass}`).toString("base64"),
    ].filter((form) => form !== "");
    // Dropped whole rather than masked: a short password masked inside the text would shred it.
    if (forms.some((form) => reply.includes(form))) reply = code === undefined ? "" : String(code);
  }
  reply = visible(reply);
  if (reply.length > LONGEST_REPLY_SHOWN) reply = `${reply.slice(0, LONGEST_REPLY_SHOWN - 1)}…`;
  if (reply === "" && code !== undefined) return String(code);
  return reply;
}

/** A 4xx reply (and 503, a session in the wrong state) may be accepted later; a 5xx is final. */
function replyIsPermanent(error: NodemailerError): boolean {
  if (error.permanent !== undefined) return error.permanent;
  const code = error.responseCode;
  return code !== undefined && code >= 500 && code < 600 && code !== 503;
}

const TIMEOUT_PHASE: Record<NonNullable<NodemailerError["timeoutType"]>, string> = {
  CONNECT_TIMEOUT: "no connection",
  GREETING_TIMEOUT: "no greeting",
  UPGRADE_TIMEOUT: "no TLS handshake",
  SOCKET_TIMEOUT: "no answer",
};

/** Socket errors that are TLS's: the handshake or the certificate, not the network. */
const TLS_FAILURE =
  /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY|DECRYPT)_|HOSTNAME_MISMATCH)/;

function mailError(error: NodemailerError, attempt: Attempt): DeliveryError {
  const { server, target, timeoutMs } = attempt;
  const fail = (retryable: boolean, what: string) =>
    new DeliveryError("e-mail", retryable, target, what);
  const code = error.code ?? "";
  const original = error.originalCode ?? "";
  const noReply = error.responseCode === undefined;

  const silent = attempt.deadlinePassed || code === "ETIMEDOUT";
  if (attempt.handedOver && noReply && (silent || isConnectionLoss(code))) {
    // The message is the server's to keep or lose: sent again, it may arrive twice (with the
    // same Message-ID, which a mail client shows once).
    const why = silent
      ? `no answer within ${durationText(attempt.deadlinePassed ? LONGEST_DELIVERY_MS : timeoutMs, "seconds")}`
      : original || "the connection closed";
    return fail(
      true,
      `the mail server ${target} took the message's data but did not confirm it (${why}): it may or may not have delivered it`,
    );
  }
  if (attempt.deadlinePassed) {
    return fail(
      true,
      `the mail server ${target} answered each step in time but did not finish within ${durationText(LONGEST_DELIVERY_MS, "seconds")}`,
    );
  }
  if (code === "ETIMEDOUT") {
    const phase = error.timeoutType ? `${TIMEOUT_PHASE[error.timeoutType]} ` : "";
    return fail(
      true,
      `the mail server ${target} did not answer in time (${phase}within ${durationText(timeoutMs, "seconds")}): check that it is up and that POS_REPORT_SMTP_URL names its SMTP port`,
    );
  }
  if (code === "ETLS" || TLS_FAILURE.test(original)) return tlsError(error, attempt, fail);
  if (isConnectionLoss(code)) {
    if (original === "") {
      // No socket error under it: the server hung up, which a server does when it is not an
      // SMTP server or is shedding load.
      return fail(
        true,
        `the mail server ${target} closed the connection: check that POS_REPORT_SMTP_URL names its SMTP port (smtp:// for 587 or 25, smtps:// for 465)`,
      );
    }
    const outcome = networkOutcome(original);
    const why = `${outcome.description}, ${original}`;
    if (original === "ENOTFOUND") {
      return fail(
        false,
        `cannot find the mail server ${target} (${why}): check POS_REPORT_SMTP_URL`,
      );
    }
    return fail(
      outcome.retryable,
      `cannot reach the mail server ${target} (${why}): check POS_REPORT_SMTP_URL`,
    );
  }
  if (noReply) {
    if (code === "EAUTH" || code === "ENOAUTH") {
      return fail(
        false,
        `the mail server ${target} offers no login pos-sync can use: check POS_REPORT_SMTP_URL`,
      );
    }
    return fail(
      false,
      `the mail server ${target} did not speak SMTP as expected (${code || "unexpected error"}): check POS_REPORT_SMTP_URL`,
    );
  }
  return replyError(error, server, target, fail);
}

/** The connection ended or could not be made: nodemailer's codes for a socket's end. */
function isConnectionLoss(code: string): boolean {
  return code === "ECONNECTION" || code === "ESOCKET" || code === "EDNS";
}

type Fail = (retryable: boolean, what: string) => DeliveryError;

function tlsError(error: NodemailerError, attempt: Attempt, fail: Fail): DeliveryError {
  const { server, target } = attempt;
  if (error.command === "STARTTLS" && error.responseCode !== undefined) {
    const reply = shownReply(error, server);
    if (!replyIsPermanent(error)) {
      return fail(true, `the mail server ${target} cannot start TLS for now (${reply})`);
    }
    // Sent without the server offering it only when a password is to cross a network.
    if (mustUseTls(server)) {
      return fail(
        false,
        `the mail server ${target} offers no TLS (${reply}), and pos-sync sends no password in clear over a network: use smtps:// with the server's TLS port (usually 465)`,
      );
    }
    return fail(
      false,
      `the mail server ${target} offers STARTTLS but refused it (${reply}): its TLS set-up needs fixing, or use smtps:// with its TLS port (usually 465) in POS_REPORT_SMTP_URL`,
    );
  }
  const original = error.originalCode ?? "";
  if (
    /^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|RECORD_LAYER_FAILURE)$/.test(original)
  ) {
    return fail(
      false,
      `the mail server ${target} does not speak TLS on that port (${original}): use smtp:// for ports 587 and 25, smtps:// for 465, in POS_REPORT_SMTP_URL`,
    );
  }
  // Node's own words for a certificate ("certificate has expired", "self-signed certificate")
  // tell the server's administrator what to fix; the first line is enough.
  const why = visible((error.message.split("\n")[0] ?? "").replace(/^Error initiating TLS - /, ""));
  const shown =
    why.length > LONGEST_REPLY_SHOWN ? `${why.slice(0, LONGEST_REPLY_SHOWN - 1)}…` : why;
  const advice = attempt.caConfigured
    ? "the server's certificate must be the one in POS_REPORT_SMTP_CA or signed by it, and valid for the host named in POS_REPORT_SMTP_URL"
    : "the server's certificate must be valid for the host named in POS_REPORT_SMTP_URL, or POS_REPORT_SMTP_CA name the certificate (a self-signed one) or CA to trust";
  return fail(
    false,
    `the TLS connection to the mail server ${target} failed (${shown}${original ? `, ${original}` : ""}): ${advice}`,
  );
}

/** A failure the server stated with a reply code: what it refused, judged by the command that
 * got the reply, and whether for good (5xx) or for now (4xx). */
function replyError(
  error: NodemailerError,
  server: SmtpServer,
  target: string,
  fail: Fail,
): DeliveryError {
  const reply = shownReply(error, server);
  const command = error.command ?? "";
  if (error.responseCode === 530) {
    // 530: authentication required, whatever the command it answered.
    const advice = /TLS/i.test(reply)
      ? "requires TLS (%): use smtps:// with the server's TLS port (usually 465) in POS_REPORT_SMTP_URL"
      : "requires a login (%): put the user and password in POS_REPORT_SMTP_URL (smtp://user:password@host:port)";
    return fail(false, `the mail server ${target} ${advice.replace("%", reply)}`);
  }
  // What was refused, what to do about it if for good, what was deferred if for now.
  let refused: [string, string, string];
  if (command === "CONN" || /^(EHLO|HELO)\b/.test(command)) {
    refused = ["the session", "check POS_REPORT_SMTP_URL", "is not taking mail"];
  } else if (error.code === "EAUTH" || /^AUTH\b/.test(command)) {
    refused = [
      "the login",
      "check the user and password in POS_REPORT_SMTP_URL",
      "could not log in",
    ];
  } else if (/^MAIL\b/.test(command)) {
    refused = [
      "the sender",
      "check POS_REPORT_FROM (a server often takes only its own domain's senders)",
      "deferred the sender",
    ];
  } else if (/^RCPT\b/.test(command) || error.rejected?.length) {
    const rejected = error.rejected ?? [];
    const whom = rejected.length
      ? `the recipient${rejected.length > 1 ? "s" : ""} ${rejected.map(visible).join(", ")}`
      : "the recipients";
    refused = [whom, "check POS_REPORT_TO", `deferred ${whom}`];
  } else {
    refused = ["the message", "its reply says why", "deferred the message"];
  }
  const [what, advice, deferred] = refused;
  return replyIsPermanent(error)
    ? fail(false, `the mail server ${target} refused ${what} (${reply}): ${advice}`)
    : fail(true, `the mail server ${target} ${deferred} for now (${reply})`);
}
