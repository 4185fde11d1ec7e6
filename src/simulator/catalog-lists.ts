/**
 * The catalog lists a location serves: its items, less those a test hid as a back office does
 * when it deletes them.
 */
import type { Category, Device, Modifier, PaymentMethod, Product, Tax } from "../api/schemas.js";
import type { SimLocation } from "./location.js";
import type { Random } from "./random.js";

export type CatalogKind =
  | "products"
  | "categories"
  | "modifiers"
  | "paymentMethods"
  | "taxes"
  | "devices";

export const CATALOG_KINDS: readonly CatalogKind[] = [
  "products",
  "categories",
  "modifiers",
  "paymentMethods",
  "taxes",
  "devices",
];

export class CatalogLists {
  private readonly hidden = new Set<string>();

  private visible<T extends { id: string }>(location: SimLocation, items: readonly T[]): T[] {
    return items.filter((item) => !this.hidden.has(`${location.index}:${item.id}`));
  }

  products(location: SimLocation): Product[] {
    return this.visible(location, location.catalog.products);
  }

  categories(location: SimLocation): Category[] {
    return this.visible(location, location.catalog.categories);
  }

  modifiers(location: SimLocation): Modifier[] {
    return this.visible(location, location.catalog.modifiers);
  }

  paymentMethods(location: SimLocation): PaymentMethod[] {
    return this.visible(location, location.catalog.paymentMethods);
  }

  taxes(location: SimLocation): Tax[] {
    return this.visible(location, location.catalog.taxes);
  }

  devices(location: SimLocation): Device[] {
    return this.visible(location, location.devices);
  }

  /** Every item of a kind, hidden ones included. */
  items(location: SimLocation, kind: CatalogKind): { id: string }[] {
    return kind === "devices" ? location.devices : location.catalog[kind];
  }

  /** Hides `count` visible items of each kind, chosen by `random`; returns their ids. */
  hide(
    location: SimLocation,
    kinds: readonly CatalogKind[],
    count: number,
    random: Random,
  ): string[] {
    const hiddenNow: string[] = [];
    for (const kind of kinds) {
      const candidates = this.visible(location, this.items(location, kind));
      for (const item of random.shuffle(candidates).slice(0, count)) {
        this.hidden.add(`${location.index}:${item.id}`);
        hiddenNow.push(item.id);
      }
    }
    return hiddenNow;
  }

  restore(): void {
    this.hidden.clear();
  }
}
