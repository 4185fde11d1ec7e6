/**
 * The send stage: a recorded message goes to its one recipient by its channel's transport, SMTP
 * (mail.ts) or a webhook (webhook.ts), with the id that is the same on every attempt
 * (message-keys.ts). Each failure is a DeliveryError that says whether it may pass.
 */

import type { Channels } from "../../config/channel-addresses.js";
import type { WaitingDelivery } from "../../db/deliveries/deliveries.js";
import type { MailBody } from "../message.js";
import { stableMessageId } from "../message-keys.js";
import { sendMail } from "./mail.js";
import { DeliveryError } from "./transport.js";
import { postWebhook } from "./webhook.js";

export async function send(delivery: WaitingDelivery, channels: Channels): Promise<void> {
  const id = stableMessageId(delivery);
  if (delivery.channel === "e-mail" && channels.mail !== undefined) {
    const body = JSON.parse(delivery.body) as MailBody;
    const receipt = await sendMail(
      { ...channels.mail, to: [delivery.recipient] },
      {
        subject: delivery.subject,
        text: body.text,
        html: body.html,
        messageId: `<${id}@pos-sync>`,
      },
    );
    if (receipt.rejected.length > 0) {
      throw new DeliveryError(
        "e-mail",
        false,
        delivery.recipient,
        `the mail server refused ${delivery.recipient}: check POS_REPORT_TO`,
      );
    }
    return;
  }
  if (delivery.channel === "webhook" && channels.webhookUrl !== undefined) {
    await postWebhook(channels.webhookUrl, JSON.parse(delivery.body), { idempotencyKey: id });
    return;
  }
  throw new Error(`no ${delivery.channel} is configured`);
}
