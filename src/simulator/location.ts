/**
 * One simulated location: its identity and API key, devices, staff and catalog. Everything is
 * drawn from the seed, so location N of seed S is the same in every process. The locations of a
 * seed are one chain: they sell the same dishes under the same skus, each location its own
 * prices and ids, and a few dishes off its menu.
 */
import type {
  Category,
  Device,
  Location,
  Modifier,
  PaymentMethod,
  Product,
  Tax,
} from "../api/schemas.js";
import { Random } from "./random.js";
import {
  DEVICE_MODELS,
  DISCOUNTS,
  MENU,
  MODIFIER_GROUPS,
  PAYMENT_METHODS,
  STAFF_NAMES,
  VENUES,
} from "./templates.js";

export interface StaffMember {
  id: string;
  name: string;
}

export interface DiscountDefinition {
  id: string;
  name: string;
  percent: number;
}

export interface PriceTier {
  priceTypeId: number;
  name: string;
}

export const PRICE_TIERS = {
  eatIn: { priceTypeId: 1, name: "Eat in" },
  takeaway: { priceTypeId: 2, name: "Takeaway" },
} as const satisfies Record<string, PriceTier>;

/** What the order generator needs to know about a product beyond its catalog entry. */
export interface SellableProduct {
  product: Product;
  categoryName: string;
  subCategoryName: string;
  soldByWeight: boolean;
  /** Cents and tax rate per price tier name. */
  prices: ReadonlyMap<string, { cents: number; rateBp: number }>;
  modifiers: readonly Modifier[];
}

export interface LocationCatalog {
  categories: Category[];
  products: Product[];
  modifiers: Modifier[];
  paymentMethods: PaymentMethod[];
  taxes: Tax[];
}

export interface SimLocation {
  index: number;
  apiKey: string;
  offsetMinutes: number;
  /** The API writes this location's date-times in UTC (…Z) rather than in its offset. */
  sendsUtc: boolean;
  location: Location;
  devices: Device[];
  staff: StaffMember[];
  discounts: DiscountDefinition[];
  catalog: LocationCatalog;
  sellable: SellableProduct[];
  /** Tax catalog entry per rate in hundredths of a percent. */
  taxByRate: ReadonlyMap<number, Tax>;
}

const TAX_RATES_BP = [550, 1000, 2000] as const;

function taxName(rateBp: number): string {
  return `VAT ${rateBp / 100}%`;
}

function digits(random: Random, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) text += String(random.int(0, 9));
  return text;
}

function buildIdentity(
  random: Random,
  index: number,
): { location: Location; offsetMinutes: number } {
  const venue = VENUES[index % VENUES.length] ?? VENUES[0];
  if (!venue) throw new Error("no venue templates");
  const round = Math.floor(index / VENUES.length);
  const name = round === 0 ? venue.name : `${venue.name} ${round + 1}`;
  const location: Location = {
    id: random.uuid(),
    address: venue.address,
    siret: digits(random, 14),
    city: venue.city,
    country: venue.country,
    naf: "5610A",
    name,
    phone: random.chance(0.85) ? venue.phone : null,
    text: random.chance(0.6) ? "Thank you for your visit!" : null,
    tva: `${venue.country}${digits(random, 11)}`,
    url: random.chance(0.5)
      ? `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example`
      : null,
    zip: venue.zip,
  };
  return { location, offsetMinutes: venue.offsetMinutes };
}

function buildDevices(random: Random): Device[] {
  const count = random.int(2, 4);
  return Array.from({ length: count }, (_, i) => ({
    id: random.uuid(),
    name: `Till ${i + 1}`,
    model: random.pick(DEVICE_MODELS),
    // A field the spec does not show ("other device fields: not shown").
    osVersion: `17.${random.int(0, 6)}`,
  }));
}

function buildStaff(random: Random): StaffMember[] {
  const count = random.int(3, 6);
  const names = random.shuffle(STAFF_NAMES).slice(0, count);
  return names.map((name) => ({ id: random.uuid(), name }));
}

function buildModifiers(random: Random): Map<string, Modifier> {
  const modifiers = new Map<string, Modifier>();
  for (const [groupName, options] of Object.entries(MODIFIER_GROUPS)) {
    modifiers.set(groupName, {
      id: random.uuid(),
      name: groupName,
      options: options.map(([name, priceCents]) => ({
        id: random.uuid(),
        name,
        price: priceCents / 100,
      })),
    });
  }
  return modifiers;
}

/**
 * The chain's own product codes, one per dish of the menu: a chain's catalog is managed once, so
 * a dish has the same sku at every location (or none anywhere: the spec's sku is optional,
 * absent or null). Drawn from the seed alone, whatever the location.
 */
function chainSkus(seed: number): Map<string, Partial<Pick<Product, "sku">>> {
  const random = new Random(seed, "chain:skus");
  const skus = new Map<string, Partial<Pick<Product, "sku">>>();
  for (const template of MENU) {
    for (const { name } of template.products) {
      const roll = random.next();
      if (roll < 0.3) skus.set(name, {});
      else if (roll < 0.5) skus.set(name, { sku: null });
      else skus.set(name, { sku: `SKU-${digits(random, 6)}` });
    }
  }
  return skus;
}

/** A location leaves a few of the chain's dishes off its menu (never a category's first). */
const OFF_MENU_CHANCE = 0.06;

function buildCatalog(
  random: Random,
  skus: ReadonlyMap<string, Partial<Pick<Product, "sku">>>,
  taxByRate: ReadonlyMap<number, Tax>,
): { catalog: LocationCatalog; sellable: SellableProduct[] } {
  const modifierByGroup = buildModifiers(random);
  const categories: Category[] = [];
  const products: Product[] = [];
  const sellable: SellableProduct[] = [];

  for (const [position, template] of MENU.entries()) {
    const category: Category = { id: random.uuid(), name: template.name, index: position };
    categories.push(category);
    const subCategories = template.subCategories.map((name) => ({ name, id: random.uuid() }));
    const [eatInRate, takeawayRate] = template.taxRatesBp;
    const modifiers = template.modifierGroups.flatMap((group) => {
      const modifier = modifierByGroup.get(group);
      return modifier ? [modifier] : [];
    });

    for (const [rank, productTemplate] of template.products.entries()) {
      if (rank > 0 && random.chance(OFF_MENU_CHANCE)) continue;
      const archived = random.chance(0.1);
      const ownSubCategories = archived
        ? []
        : [
            random.pick(subCategories),
            ...(random.chance(0.15) ? [random.pick(subCategories)] : []),
          ].filter((sub, i, all) => all.findIndex((other) => other.id === sub.id) === i);
      const eatInCents = Math.round((productTemplate.priceCents * random.int(90, 115)) / 1000) * 10;
      const takeawayCents = Math.max(10, eatInCents - random.pick([0, 50, 100]));
      const product: Product = {
        id: random.uuid(),
        name: productTemplate.name,
        category: template.name,
        categoryId: category.id,
        subCategories: ownSubCategories,
        priceList: [
          {
            priceTypeId: PRICE_TIERS.eatIn.priceTypeId,
            priceTypeName: PRICE_TIERS.eatIn.name,
            unitPrice: eatInCents / 100,
            taxRate: eatInRate,
          },
          {
            priceTypeId: PRICE_TIERS.takeaway.priceTypeId,
            priceTypeName: PRICE_TIERS.takeaway.name,
            unitPrice: takeawayCents / 100,
            taxRate: takeawayRate,
          },
        ],
        ...skus.get(productTemplate.name),
      };
      products.push(product);
      sellable.push({
        product,
        categoryName: template.name,
        subCategoryName: ownSubCategories[0]?.name ?? "",
        soldByWeight: productTemplate.soldByWeight === true,
        prices: new Map([
          [PRICE_TIERS.eatIn.name, { cents: eatInCents, rateBp: eatInRate }],
          [PRICE_TIERS.takeaway.name, { cents: takeawayCents, rateBp: takeawayRate }],
        ]),
        modifiers,
      });
    }
  }

  const paymentMethods: PaymentMethod[] = PAYMENT_METHODS.map((method) => ({
    id: random.uuid(),
    name: method.name,
    enabled: method.enabled,
  }));
  const catalog: LocationCatalog = {
    categories,
    products,
    modifiers: [...modifierByGroup.values()],
    paymentMethods,
    taxes: [...taxByRate.values()],
  };
  return { catalog, sellable };
}

export function buildLocation(seed: number, index: number): SimLocation {
  const random = new Random(seed, `location:${index}`);
  const apiKey = `pos_sim_${random.uuid().replaceAll("-", "")}`;
  const { location, offsetMinutes } = buildIdentity(random, index);
  const devices = buildDevices(random);
  const staff = buildStaff(random);
  const taxByRate = new Map<number, Tax>(
    TAX_RATES_BP.map((rateBp) => [
      rateBp,
      { id: random.uuid(), name: taxName(rateBp), percentage: rateBp },
    ]),
  );
  const discounts = DISCOUNTS.map((discount) => ({ id: random.uuid(), ...discount }));
  const { catalog, sellable } = buildCatalog(random, chainSkus(seed), taxByRate);
  return {
    index,
    apiKey,
    offsetMinutes,
    sendsUtc: false,
    location,
    devices,
    staff,
    discounts,
    catalog,
    sellable,
    taxByRate,
  };
}
