/**
 * Hostile data, for proving that pos-sync stores whatever the spec allows and sets aside, with a
 * reason, whatever it does not: optional fields left out and nullable ones null everywhere at
 * once, fields the spec does not know, very long strings, Unicode and control characters,
 * zero, negative and huge amounts, and now and then a record the spec forbids. Which order gets
 * what depends only on its id, so the ground truth is the served data itself.
 *
 * Apart from those, hostile names: every location, operator and product named with what would
 * take over a terminal that printed it raw, or a chat that posted it as markup, for proving that
 * pos-sync's terminal output shows such text visibly (terminal-text.ts) and that its webhooks
 * post it as plain words (messages/compose/chat-text.ts).
 */
import type { Order, OrderItem, Product } from "../api/schemas.js";
import type { SimLocation } from "./location.js";
import { hashToUnit } from "./random.js";

/** Text with the characters that break naive pipelines: NUL, bell, bidi override, newline,
 * tab, quotes, backslash, emoji, accents, CJK. */
export const NASTY_TEXT = 'Café "Ω" \\ \u0000\u0007\u202eevil\n\t🍕 ñ 漢字 ';

/** What a hostile name carries, each part a way into a terminal that prints it raw or a chat
 * that reads it as markup. */
export const HOSTILE_NAME_PARTS = {
  /** ESC: an SGR sequence that turns the rest of the screen red. */
  colour: "\u001b[31m",
  /** OSC 0: retitles the terminal window, ended by BEL. */
  windowTitle: "\u001b]0;owned\u0007",
  /** CR: the rest overwrites the start of the line. */
  carriageReturn: "\r",
  /** DEL. */
  delete: "\u007f",
  /** C1 CSI, the one-byte form of ESC [: "clear the screen" on terminals that honour C1. */
  c1: "\u009b2J",
  /** RIGHT-TO-LEFT OVERRIDE: what follows reads backwards. */
  bidiOverride: "\u202e",
  /** Slack's and Mattermost's mentions of everyone in a channel. */
  chatMention: "<!channel> @here",
  /** Words over a link, in Slack's markup and in Mattermost's Markdown. */
  chatLink: "<https://evil.example|Confirm payroll> [Confirm](https://evil.example)",
  /** LF and a line that looks like `pos-sync status` output. */
  forgedLine: "\n  orders   complete through 2099-01-01",
} as const;

/** A name with every hostile part, the name itself still inside it (for --location, and for
 * people reading a test's output). */
export function hostileName(name: string): string {
  const p = HOSTILE_NAME_PARTS;
  return `${p.colour}${name}${p.windowTitle}${p.carriageReturn}${p.delete}${p.c1}${p.bidiOverride}${name} ${p.chatMention} ${p.chatLink}${p.forgedLine}`;
}

/** The location with hostile names for itself, its staff (the orders' operators and the
 * reports' clerks) and its products (the order items' descriptions). */
export function withHostileNames(location: SimLocation): SimLocation {
  // The catalog and the sellable products share their product objects: keep them shared.
  const renamed = new Map<Product, Product>(
    location.catalog.products.map((p) => [p, { ...p, name: hostileName(p.name) }]),
  );
  const rename = (p: Product) => renamed.get(p) ?? { ...p, name: hostileName(p.name) };
  return {
    ...location,
    location: { ...location.location, name: hostileName(location.location.name ?? "") },
    staff: location.staff.map((member) => ({ ...member, name: hostileName(member.name) })),
    catalog: { ...location.catalog, products: location.catalog.products.map(rename) },
    sellable: location.sellable.map((s) => ({ ...s, product: rename(s.product) })),
  };
}

type Treatment = "bare" | "extended" | "long" | "unicode" | "amounts" | "forbidden";

function treatment(orderId: string): Treatment | undefined {
  const roll = hashToUnit(`hostile:${orderId}`);
  if (roll < 0.1) return "bare";
  if (roll < 0.15) return "extended";
  if (roll < 0.18) return "long";
  if (roll < 0.23) return "unicode";
  if (roll < 0.28) return "amounts";
  if (roll < 0.3) return "forbidden";
  return undefined;
}

function bareItem(item: OrderItem): OrderItem {
  const { stockImpactIndicator: _s, isLoss: _l, lossReason: _r, comboParentId: _c, ...rest } = item;
  return { ...rest, weight: null, cancelReason: null, transferReason: null };
}

/** Every optional field absent and every nullable field null. */
function bare(order: Order): Order {
  const { deviceName: _d, channel: _c, serviceType: _s, isTraining: _t, ...rest } = order;
  return {
    ...rest,
    customerId: null,
    deviceId: null,
    transferReason: null,
    cancelReason: null,
    tips: null,
    externalOrderId: null,
    externalLocationId: null,
    items: order.items.map(bareItem),
  };
}

export function makeHostile(order: Order): Order {
  switch (treatment(order.id)) {
    case "bare":
      return bare(order);
    case "extended":
      return {
        ...order,
        loyaltyProgram: { tier: "gold", points: 1234, history: [1, 2, 3] },
        items: order.items.map((item) => ({
          ...item,
          kitchenNote: "no onions",
          allergenCodes: ["G", "L"],
        })),
      };
    case "long":
      return { ...order, operatorName: "Long name ".repeat(5_000), orderPlace: "T".repeat(20_000) };
    case "unicode":
      return {
        ...order,
        operatorName: NASTY_TEXT,
        orderPlace: `${NASTY_TEXT}table`,
        items: order.items.map((item) => ({
          ...item,
          description: `${NASTY_TEXT}${item.description}`,
        })),
      };
    case "amounts": {
      const amount = [0, -12.34, 1e15, 1e-9][
        Math.floor(hashToUnit(`amount:${order.id}`) * 4)
      ] as number;
      return {
        ...order,
        total: amount,
        totalTax: amount === 0 ? 0 : -amount / 10,
        totalDiscount: 0,
      };
    }
    case "forbidden":
      // guests must be >= 0 (spec 2.1): pos-sync has to set this record aside, not store it.
      return { ...order, guests: -3 };
    default:
      return order;
  }
}
